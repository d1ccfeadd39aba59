import { createHmac } from 'node:crypto';
import type { SecretSource } from '../../shared/storage/parameter-secret.js';
import type { SendNotice } from '../notice.js';
import type { SiteSettings } from '../templates/site.js';
import { failureReason } from './failure-reason.js';
import { webhookPayload } from './webhook-payload.js';

/**
 * The webhook: each notice POSTed as JSON (webhook-payload.ts) to WEBHOOK, signed as Standard Webhooks
 * signs (https://www.standardwebhooks.com/): `webhook-id` (the same for every retry of one notice, so a
 * receiver can drop a repeat), `webhook-timestamp`, and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>` keyed with the `whsec_` secret. Any 2xx is success; anything else, a redirect
 * included (never followed), a timeout or a refused connection fails the delivery, which is retried.
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
/** Standard Webhooks asks for 24 to 64 bytes; a shorter key is too easy to guess. */
const minKeyBytes = 24;

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
      throw new Error(`the webhook answered ${response.status}`);
    }
  };
}

/** WEBHOOK when it may be posted to: https anywhere, plain http only to a loopback host. */
function allowedTarget(url: string): URL {
  const target = new URL(url);
  if (target.protocol === 'https:') return target;
  if (target.protocol === 'http:' && isLoopback(target.hostname)) return target;
  throw new Error('WEBHOOK must be an https URL (plain http only to localhost, 127.0.0.1 or [::1])');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** The HMAC key of the secret: the bytes after `whsec_`, in base64 (as the standardwebhooks libraries read it). */
function signingKey(secret: string | undefined): Buffer {
  if (!secret) throw new Error('WEBHOOK_SECRET is not set: the webhook is never sent unsigned');
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length < minKeyBytes) {
    throw new Error(`WEBHOOK_SECRET must be whsec_ and at least ${minKeyBytes} random bytes in base64`);
  }
  return key;
}
