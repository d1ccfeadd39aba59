import { type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import { AppError } from '../shared/domain/errors.js';
import type { Lang } from '../shared/domain/messages.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { OutboxRepository } from '../shared/table/outbox-repository.js';

/** An outbox event's id: a ULID (its time names the day partition the event is in). */
const eventIdSchema = z
  .string()
  .check(z.regex(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/, 'must be a notification id (a ULID, as the log shows it)'));

/** `{ "action": "test" }` or `{ "action": "redrive", "id": "<event id>" }`. */
const notificationActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('test') }),
  z.object({ action: z.literal('redrive'), id: eventIdSchema }),
]);

const notRedriven: Record<Lang, (id: string) => string> = {
  en: (id) => `Notification ${id} not found, or already sent: there is nothing to send again.`,
  'zh-CN': (id) => `通知 ${id} 不存在或已发送：没有可重新发送的内容。`,
};

/**
 * `POST /api/notification` (administrators only), the log's actions in `/ui`: `test` writes a test event,
 * which the sender mails to the owner (and the owner's channels) through the same pipeline as any notice;
 * `redrive` hands a failed or stuck event to the sender again (404 when there is none, or it was sent).
 * Each answers the event's id.
 */
export function createNotificationAction({
  viewer,
  outbox,
  now,
  newId,
}: {
  readonly viewer: ResolveViewer;
  readonly outbox: Pick<OutboxRepository, 'enqueueTest' | 'redrive'>;
  readonly now: () => number;
  /** A new ULID for an event written at `time`. */
  readonly newId: (time: number) => string;
}): Router {
  return async (request) => {
    await requireAdmin(viewer, request.authorization, request.lang);
    const body = parseInput(notificationActionSchema, request.jsonBody(), request.lang);
    const at = now();
    if (body.action === 'test') {
      const id = newId(at);
      await outbox.enqueueTest(id, at);
      return envelope({ id });
    }
    if (!(await outbox.redrive(body.id, at))) {
      throw new AppError('not_found', notRedriven[request.lang](body.id));
    }
    return envelope({ id: body.id });
  };
}
