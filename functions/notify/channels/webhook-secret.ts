/**
 * The webhook's signing secret as Standard Webhooks gives it: `whsec_` and the key in base64 (the prefix may
 * be left out, as the standardwebhooks libraries allow). Read by the channel at each send and checked by the
 * notifier's configuration at start, so a bad secret stops the start instead of failing every delivery.
 */

/** Standard Webhooks asks for 24 to 64 bytes; a shorter key is too easy to guess. */
export const minWebhookKeyBytes = 24;

/** The HMAC key of `secret`, or what is wrong with it. */
export function webhookKey(secret: string): { readonly key: Buffer } | { readonly problem: string } {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length < minWebhookKeyBytes) {
    return {
      problem: `WEBHOOK_SECRET must be whsec_ and at least ${minWebhookKeyBytes} random bytes in base64`,
    };
  }
  return { key };
}
