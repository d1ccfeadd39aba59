import type { CommentStatus } from '../shared/domain/comment.js';
import type { Lang } from '../shared/domain/messages.js';
import type { RecipientKind } from '../shared/table/keys.js';
import type { NotificationCause, OutboxEvent } from '../shared/table/outbox-event.js';
import type { NoticeTemplate } from './notice.js';
import { singleAddress } from './notify-config.js';

/**
 * Who is told of an outbox event: one table of rows (cause, status, who -> recipient), read top down. For
 * each recipient (the owner, told by mail and on the owner channels; the author of the comment a reply
 * answers) the first row that matches decides: tell with a template, or not, and why. Suppressions and caps
 * need the table and are checked when sending (process-event.ts); everything here is pure.
 */

/** A comment as the rules see it, read when the notice is sent. */
export interface RuleComment {
  readonly status: CommentStatus;
  /** The address as stored (possibly empty, or not an address at all). */
  readonly mail: string;
  /** The writer's language, when the widget sent one. */
  readonly lang?: Lang;
}

/** What the rules look at beside the event. */
export interface RuleContext {
  /** The owner's settings: AUTHOR_EMAIL, AUTHOR_LANG and DISABLE_AUTHOR_NOTIFY. */
  readonly owner: {
    readonly address: string | undefined;
    readonly lang: Lang;
    readonly notifyOff: boolean;
  };
  /** The recipient kinds that have a channel (a kind without one is never told). */
  readonly channels: readonly RecipientKind[];
  /** The event's comment as it is now (absent for a test). */
  readonly comment?: RuleComment;
  /** The comment it answers as it is now: absent for a root, or when it is gone. */
  readonly parent?: RuleComment;
}

/** One notice to send: to whom, which message, in which language. */
export interface PlannedNotice {
  readonly recipient: RecipientKind;
  readonly template: NoticeTemplate;
  readonly lang: Lang;
  /** The address, for mail recipients (`owner`, `parent`). */
  readonly to?: string;
}

/** A recipient not told for a reason worth a line in the log (the delivery is recorded `skipped`). */
export interface SkippedRecipient {
  readonly recipient: RecipientKind;
  readonly reason: string;
}

/** What the rules decide for one event: notices (and logged skips), or nobody at all and why. */
export type NoticePlan =
  | {
      readonly kind: 'notify';
      readonly notices: readonly PlannedNotice[];
      readonly skipped: readonly SkippedRecipient[];
    }
  | { readonly kind: 'skip'; readonly reason: string };

/** The facts a row's `who` looks at. */
interface Situation {
  readonly event: OutboxEvent;
  readonly context: RuleContext;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const isReply = ({ event }: Situation) => event.subject?.pid !== undefined;

/** The conditions a row's `who` names. Each assumes the rows above it did not match. */
const conditions = {
  anyone: () => true,
  'owner notices off': ({ context }: Situation) => context.owner.notifyOff,
  'an administrator': ({ event }: Situation) => event.subject?.byAdmin === true,
  'a root': (situation: Situation) => !isReply(situation),
  'held when submitted': ({ event }: Situation) => event.subject?.status !== 'approved',
  'a gone parent': ({ context }: Situation) => context.parent === undefined,
  'a held parent': ({ context }: Situation) => context.parent?.status !== 'approved',
  'a parent without one plain address': ({ context }: Situation) =>
    !singleAddress.safeParse(context.parent?.mail.trim() ?? '').success,
  'the replier': ({ context }: Situation) =>
    sameAddress(context.parent?.mail ?? '', context.comment?.mail ?? ''),
  'the owner': ({ context }: Situation) =>
    context.owner.address !== undefined && sameAddress(context.parent?.mail ?? '', context.owner.address),
} as const;

/** What a row does: tell with a template; leave untold quietly (`nobody`); or skip and log why (`skip`). */
type Outcome = { readonly tell: NoticeTemplate } | { readonly nobody: string } | { readonly skip: string };

const tell = (template: NoticeTemplate): Outcome => ({ tell: template });
const nobody = (reason: string): Outcome => ({ nobody: reason });
const skip = (reason: string): Outcome => ({ skip: reason });

/** One row of the table. */
export interface RuleRow {
  /** The row in words; its unit test bears this name. */
  readonly name: string;
  /** `owner`: the owner's mail and channels (webhook, Telegram); `parent`: the author of the answered comment. */
  readonly recipient: 'owner' | 'parent';
  readonly cause: NotificationCause | 'any';
  /** The comment's status when the notice is sent. */
  readonly status: CommentStatus | 'any';
  readonly who: keyof typeof conditions;
  readonly outcome: Outcome;
}

/** The rules, first match per recipient: a table, aligned by hand. */
// prettier-ignore
export const ruleTable: readonly RuleRow[] = [
  { recipient: 'owner', cause: 'test',               status: 'any',      who: 'anyone',                             outcome: tell('test'),
    name: 'a test tells the owner by mail and on the owner channels' },
  { recipient: 'owner', cause: 'any',                status: 'spam',     who: 'anyone',                             outcome: nobody('spam notifies nobody'),
    name: 'spam tells the owner nothing, ever' },
  { recipient: 'owner', cause: 'comment.approved',   status: 'any',      who: 'anyone',                             outcome: nobody('an approval is the owner\'s own doing'),
    name: 'an approval tells the owner nothing' },
  { recipient: 'owner', cause: 'comment.submitted',  status: 'any',      who: 'owner notices off',                  outcome: nobody('DISABLE_AUTHOR_NOTIFY is set'),
    name: 'DISABLE_AUTHOR_NOTIFY keeps the owner untold' },
  { recipient: 'owner', cause: 'comment.submitted',  status: 'any',      who: 'an administrator',                   outcome: nobody('an administrator wrote it'),
    name: 'a comment an administrator wrote tells the owner nothing' },
  { recipient: 'owner', cause: 'comment.submitted',  status: 'approved', who: 'anyone',                             outcome: tell('owner-new'),
    name: 'a new approved comment tells the owner by mail and on the owner channels' },
  { recipient: 'owner', cause: 'comment.submitted',  status: 'waiting',  who: 'anyone',                             outcome: tell('owner-waiting'),
    name: 'a comment waiting for approval tells the owner, with the moderation links' },

  { recipient: 'parent', cause: 'test',              status: 'any',      who: 'anyone',                             outcome: nobody('a test tells no reader'),
    name: 'a test tells no reader' },
  { recipient: 'parent', cause: 'any',               status: 'spam',     who: 'anyone',                             outcome: nobody('spam notifies nobody'),
    name: 'spam tells the parent\'s author nothing, ever' },
  { recipient: 'parent', cause: 'any',               status: 'any',      who: 'a root',                             outcome: nobody('a root answers nobody'),
    name: 'a root comment tells no reader' },
  { recipient: 'parent', cause: 'any',               status: 'waiting',  who: 'anyone',                             outcome: nobody('a reply waiting for approval is told once approved'),
    name: 'a reply waiting for approval tells its parent\'s author nothing yet' },
  { recipient: 'parent', cause: 'comment.submitted', status: 'approved', who: 'held when submitted',                outcome: nobody('its approval tells the parent\'s author'),
    name: 'a reply held when submitted is told by its approval, not by its submission' },
  { recipient: 'parent', cause: 'any',               status: 'approved', who: 'a gone parent',                      outcome: skip('the comment it answers is gone'),
    name: 'a reply to a comment deleted since tells nobody' },
  { recipient: 'parent', cause: 'any',               status: 'approved', who: 'a held parent',                      outcome: skip('the comment it answers is not approved'),
    name: 'a reply to a held comment (waiting or spam) tells nobody' },
  { recipient: 'parent', cause: 'any',               status: 'approved', who: 'a parent without one plain address', outcome: skip('no address: the parent\'s mail is empty or not one plain address'),
    name: 'a reply to a comment without one plain address tells nobody' },
  { recipient: 'parent', cause: 'any',               status: 'approved', who: 'the replier',                        outcome: skip('the replier\'s own comment'),
    name: 'a reply to one\'s own comment (same address, any case) tells nobody' },
  { recipient: 'parent', cause: 'any',               status: 'approved', who: 'the owner',                          outcome: skip('the owner\'s address: the owner is told as the owner'),
    name: 'a reply to the owner\'s address sends no reader mail' },
  { recipient: 'parent', cause: 'any',               status: 'approved', who: 'anyone',                             outcome: tell('reply'),
    name: 'an approved reply tells its parent\'s author, in the parent\'s language' },
];

/** The owner channels told beside the owner's mail. */
const ownerChannels = ['webhook', 'telegram'] as const satisfies readonly RecipientKind[];

/** The first row for `recipient` that matches the situation. */
function decide(recipient: RuleRow['recipient'], situation: Situation): Outcome {
  const status = situation.context.comment?.status;
  const row = ruleTable.find(
    (candidate) =>
      candidate.recipient === recipient &&
      (candidate.cause === 'any' || candidate.cause === situation.event.cause) &&
      (candidate.status === 'any' || candidate.status === status) &&
      conditions[candidate.who](situation),
  );
  return row?.outcome ?? nobody('no rule applies');
}

/**
 * The notices of `event` in `context`: the owner's (mail when AUTHOR_EMAIL is set, and the owner channels) and
 * the parent's author's (in the parent's stored language, else the owner's), for the kinds that have a
 * channel; or, when nobody is told at all, why.
 */
export function noticesFor(event: OutboxEvent, context: RuleContext): NoticePlan {
  const situation: Situation = { event, context };
  const has = (kind: RecipientKind) => context.channels.includes(kind);
  const notices: PlannedNotice[] = [];
  const skipped: SkippedRecipient[] = [];
  const untold: string[] = [];

  const owner = decide('owner', situation);
  if ('tell' in owner) {
    const { address, lang } = context.owner;
    const kinds = (['owner', ...ownerChannels] as const).filter(has);
    if (kinds.length === 0) {
      untold.push('owner: no channel is configured');
    } else {
      for (const kind of kinds) {
        if (kind !== 'owner') notices.push({ recipient: kind, template: owner.tell, lang });
        else if (address === undefined)
          skipped.push({ recipient: 'owner', reason: 'no address: AUTHOR_EMAIL is not set' });
        else notices.push({ recipient: 'owner', template: owner.tell, lang, to: address });
      }
    }
  } else {
    untold.push(`owner: ${'nobody' in owner ? owner.nobody : owner.skip}`);
  }

  const parent = decide('parent', situation);
  if ('nobody' in parent) untold.push(`parent: ${parent.nobody}`);
  else if (!has('parent')) untold.push('parent: no mail channel is configured');
  else if ('skip' in parent) skipped.push({ recipient: 'parent', reason: parent.skip });
  else {
    notices.push({
      recipient: 'parent',
      template: parent.tell,
      lang: context.parent?.lang ?? context.owner.lang,
      to: context.parent?.mail.trim() ?? '',
    });
  }

  if (notices.length === 0 && skipped.length === 0) return { kind: 'skip', reason: untold.join('; ') };
  return { kind: 'notify', notices, skipped };
}
