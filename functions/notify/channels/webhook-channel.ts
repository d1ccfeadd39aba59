import { createHmac } from 'node:crypto';
import type { SecretSource } from '../../shared/secrets/parameter-secret.js';
import type { SendNotice } from '../notice.js';
import type { SiteSettings } from '../templates/site.js';
import { failureReason } from './failure-reason.js';
import { isPermanentStatus, PermanentFailure } from './permanent-failure.js';
import { webhookPayload } from './webhook-payload.js';
import { webhookKey } from './webhook-secret.js';

/**
 * The webhook: each notice POSTed as JSON (webhook-payload.ts) to WEBHOOK, signed as Standard Webhooks
 * signs (https://www.standardwebhooks.com/): `webhook-id` (the same for every retry of one notice, so a
 * receiver can drop a repeat), `webhook-timestamp`, and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>` keyed with the `whsec_` secret. Any 2xx is success. A 4xx (but 408 and 429), a
 * missing or bad secret or a URL it may not post to fails the delivery for good (permanent-failure.ts);
 * anything else, a redirect (never followed), a 5xx, 408, 429, a timeout or a refused connection fails it
 * for now, and it is retried.
 */

/** What the webhook channel needs. */
export interface WebhookChannelSettings {
  /** WEBHOOK: https, or http to this machine (a local receiver). */
  readonly url: string;
  /** WEBHOOK_SECRET (on AWS WEBHOOK_SECRET_PARAMETER): `whsec_` and the key in base64. */
  readonly secret: SecretSource;
  readonly site: SiteSettings;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly fetch?: typeof fetch;
  /** 5 s by default. */
  readonly timeoutMs?: number;
}

const defaultTimeoutMs = 5000;

/** The webhook channel. */
export function createWebhookChannel(settings: WebhookChannelSettings): SendNotice {
  const send = settings.fetch ?? fetch;
  return async (notice) => {
    const target = allowedTarget(settings.url);
    const key = signingKey(await settings.secret());
    const id = `${notice.eventId}.${notice.recipient}`;
    const sentAt = settings.now();
    const timestamp = Math.floor(sentAt / 1000).toString();
    const body = JSON.stringify(webhookPayload(notice, settings.site, sentAt));
    const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
    // The failure in words, not as a cause: a cause would carry the URL (which may hold a token) into the log.
    const response = await send(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,${signature}`,
      },
      body,
      // A redirect is an answer, not a new address to post to: following one could lead anywhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(settings.timeoutMs ?? defaultTimeoutMs),
    }).catch((error: unknown) => {
      throw new Error(`the webhook could not be reached: ${failureReason(error)}`);
    });
    // Only the status matters: the body is let go unread.
    await response.body?.cancel().catch(() => undefined);
    if (response.status < 200 || response.status > 299) {
      const failure = isPermanentStatus(response.status) ? PermanentFailure : Error;
      throw new failure(`the webhook answered ${response.status}`);
    }
  };
}

/** WEBHOOK when it may be posted to: https anywhere, plain http only to a loopback host. */
function allowedTarget(url: string): URL {
  const target = new URL(url);
  if (target.protocol === 'https:') return target;
  if (target.protocol === 'http:' && isLoopback(target.hostname)) return target;
  throw new PermanentFailure(
    'WEBHOOK must be an https URL (plain http only to localhost, 127.0.0.1 or [::1])',
  );
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** The HMAC key of the secret (webhook-secret.ts); a secret missing or malformed fails the delivery for good. */
function signingKey(secret: string | undefined): Buffer {
  if (!secret) throw new PermanentFailure('WEBHOOK_SECRET is not set: the webhook is never sent unsigned');
  const read = webhookKey(secret);
  if ('problem' in read) throw new PermanentFailure(read.problem);
  return read.key;
}
