/**
 * The demo's stand-in for a site's own backend (docs/single-sign-on.md): a site whose member is signed in mints a
 * short-lived assertion for them, signed HS256 with SSO_SECRET, which the site's page exchanges at
 * `POST /api/token/sso` for the widget's token. Local mode only (scripts/local-site.ts serves it at
 * `POST /demo/site-login/assertion`); a real site mints it in its own backend, for its own signed-in member.
 */
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';

/** What the fake backend signs with: the key shared with the server, and the server's audience (its URL). */
export interface DemoSiteSso {
  readonly secret: string;
  readonly audience: string;
}

/** The one member of the demo site, as the site's own database would hold them. */
export const demoMember = {
  sub: 'demo-member-ada',
  name: 'Ada (a member of the demo site)',
  email: 'ada@members.example.test',
  website: 'https://ada.example',
} as const;

/** How long a demo assertion lives: long enough to reach the server, far under the 5 minutes allowed. */
const lifetimeSeconds = 60;

/**
 * An assertion for {@link demoMember}, valid for a minute from `nowMs`, with a new `jti` (it is taken once). Their
 * picture is the identicon this server draws for their address, so the demo loads nothing from elsewhere.
 */
export function mintDemoAssertion(sso: DemoSiteSso, nowMs: number = Date.now()): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const hash = createHash('md5').update(demoMember.email).digest('hex');
  return new SignJWT({
    ...demoMember,
    picture: `${sso.audience.replace(/\/+$/, '')}/avatar/${hash}.svg`,
    email_verified: true,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(sso.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetimeSeconds)
    .setJti(randomUUID())
    .sign(new TextEncoder().encode(sso.secret));
}
