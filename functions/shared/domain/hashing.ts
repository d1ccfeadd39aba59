import { createHash, createHmac } from 'node:crypto';

/** A keyed hash of a client IP: stored and compared instead of the IP itself. */
export function hashIp(salt: string, ip: string): string {
  return createHmac('sha256', salt).update(ip).digest('base64url').slice(0, 32);
}

/** The duplicate-content fingerprint Waline uses: same url, mail, nick, link and text. */
export function contentHash(content: {
  url: string;
  mail: string;
  nick: string;
  link: string;
  comment: string;
}): string {
  const { url, mail, nick, link, comment } = content;
  return createHash('sha256')
    .update(JSON.stringify([url, mail, nick, link, comment]))
    .digest('base64url');
}
