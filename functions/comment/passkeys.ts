import { isIP } from 'node:net';
// Loaded with this module on the first passkey request only (comment-handler.ts): with its ASN.1 and X.509
// libraries it is about 320 KB, which no other route's cold start pays for.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { clientNetwork } from '../shared/auth/sign-in-guard.js';
import { bearerToken, checkToken } from '../shared/auth/token.js';
import { type ResolveViewer, requireAccount, type Viewer } from '../shared/auth/viewer.js';
import type { Config } from '../shared/config.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { invalidField } from '../shared/domain/invalid-field.js';
import { limits } from '../shared/domain/limits.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import { type Passkey, passkeyLimits, presentPasskey } from '../shared/domain/passkey.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { HttpResult } from '../shared/http/http-types.js';
import { type ApiRequest, parseInput } from '../shared/http/request.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { AccountMailNotice } from '../shared/table/account-mail-event.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import type { PasskeyStore } from '../shared/table/passkey-store.js';
import type { IssueSession } from './issue-session.js';
import { checkCurrentPassword } from './update-profile.js';

/** Passkey sign-in requests (options and answers together) one network may make per window. */
export const passkeySignInsPerWindow = 20;
const windowMs = 15 * 60 * 1000;
/** How long the browser lets its reader answer (the challenge lives a little longer: `passkeyLimits`). */
const ceremonyTimeoutMs = 2 * 60 * 1000;

const base64url = (max: number) =>
  z.string().check(z.minLength(1), z.maxLength(max), z.regex(/^[A-Za-z0-9_-]+$/));
const credentialIdSchema = base64url(passkeyLimits.credentialIdChars);
/** What the browser's `PublicKeyCredential.toJSON()` holds (the page builds it by hand), bounded. */
const credentialBase = {
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
};
const registrationSchema = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16_384),
    transports: z.optional(z.array(z.string().check(z.regex(/^[a-z-]{1,32}$/))).check(z.maxLength(8))),
  }),
});
const authenticationSchema = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(2048),
    userHandle: base64url(128),
  }),
});
const proofSchema = z.object({
  /** The account's current password: what adding or removing a passkey asks of an account that has one. */
  password: z.optional(z.string().check(z.maxLength(limits.passwordMaxChars))),
});
const registerBodySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(passkeyLimits.nameChars)),
  credential: registrationSchema,
});
const signInBodySchema = z.object({ credential: authenticationSchema });
const removePathSchema = z.object({ id: credentialIdSchema });

/** What the passkey routes take. */
export interface PasskeyDependencies {
  readonly viewer: ResolveViewer;
  readonly accounts: Pick<AccountRepository, 'findById'>;
  readonly passkeys: PasskeyStore;
  /** Passkey sign-ins per network (`passkey`) and checks of the current password (`reauth`). */
  readonly accountLimits: Pick<AccountLimits, 'countAttempt'>;
  /** The key that signs tokens: without one, passkey sign-in is refused as the password's is. */
  readonly tokenSecret: SecretSource;
  readonly config: Pick<Config, 'IP_HASH_SALT' | 'TOKEN_TTL_HOURS' | 'PASSKEY_RP_ID' | 'SITE_NAME'>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** What ends every sign-in (issue-session.ts). */
  readonly issueSession: IssueSession;
  /** A new event id (a ULID) for the notice of a passkey added or removed, at `time`. */
  readonly newId: (time: number) => string;
}

/** The passkey routes' handlers (see {@link createPasskeyRoutes}). */
export interface PasskeyRoutes {
  readonly list: Router;
  readonly registrationOptions: Router;
  readonly register: Router;
  readonly remove: Router;
  readonly signInOptions: Router;
  readonly signIn: Router;
}

/** The relying party a request is for: its id, and the origins a browser may have answered from. */
interface RelyingParty {
  readonly id: string;
  readonly origins: string[];
}

/**
 * The relying party of `request`: PASSKEY_RP_ID, or the host the request reached (the API's own, as the pages'
 * `location.origin`); the origin a browser answers from is that host over https (http on `localhost` only, as
 * browsers allow). A host that is an IP address, or outside PASSKEY_RP_ID, cannot use passkeys: a 403 says so.
 */
export function relyingPartyOf(
  request: Pick<ApiRequest, 'host' | 'lang'>,
  configured?: string,
): RelyingParty {
  const host = (request.host ?? '').toLowerCase();
  const hostname = host.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  const id = configured ?? hostname;
  if (!hostname || isIP(hostname) !== 0 || (hostname !== id && !hostname.endsWith(`.${id}`))) {
    throw new AppError(
      'forbidden',
      translate(request.lang, 'passkeyHost', {
        rpId: id || 'a domain name',
        host: host.slice(0, 255) || '?',
      }),
    );
  }
  return { id, origins: [`https://${host}`, ...(hostname === 'localhost' ? [`http://${host}`] : [])] };
}

/** An answer the browser must not keep (options carry a challenge; the list is the account's own). */
const uncached = (result: HttpResult): HttpResult => ({
  ...result,
  headers: { ...result.headers, 'cache-control': 'no-store' },
});

/** A library's refusal as a 401 that says no more than the password's does. */
const refused = (lang: Lang) => new AppError('unauthorized', translate(lang, 'passkeyRefused'));

/** The account id a user handle (base64url of the id's UTF-8) names; undefined for anything else. */
function accountIdOf(userHandle: string): string | undefined {
  const id = Buffer.from(userHandle, 'base64url').toString('utf8');
  // WebAuthn's user handle is at most 64 bytes; account ids are ULIDs, or kept from before (printable, no `#`).
  return /^[\x21-\x22\x24-\x7e]{1,64}$/.test(id) ? id : undefined;
}

/**
 * Passkeys (WebAuthn, issue 28), with `@simplewebauthn/server`:
 *
 * - `GET /api/passkey`: the signed-in account's passkeys (name, created, last used), and whether adding or
 *   removing one asks for the password.
 * - `POST /api/passkey/options {password?}`: registration options for the signed-in account, after fresh proof
 *   (below); the challenge is stored, bound to the account, for `passkeyLimits.challengeMs`.
 * - `POST /api/passkey {name, credential}`: verifies the browser's answer against that stored challenge (taken
 *   once), requires user verification, and stores the passkey (at most `passkeyLimits.perAccount`).
 * - `DELETE /api/passkey/{id} {password?}`: removes one, after fresh proof.
 * - `POST /api/token/passkey/options`: sign-in options (a discoverable credential: no account is named), the
 *   challenge stored for anyone to answer once.
 * - `POST /api/token/passkey {credential}`: finds the passkey by the user handle (the account id) and credential
 *   id (one GetItem), verifies the assertion (user verification required; a sign counter that does not grow
 *   is refused, as the library documents), spends the challenge and the counter, and ends in `issueSession`.
 *   Both sign-in routes count against the network's `passkeySignInsPerWindow` before anything else.
 *
 * Fresh proof: an account with a password gives it (counted like the profile's checks: update-profile.ts); an
 * account without one (made from an external identity) must have signed in within `passkeyLimits.freshSignInMs`.
 * A stolen token alone adds no passkey.
 */
export function createPasskeyRoutes(dependencies: PasskeyDependencies): PasskeyRoutes {
  const { viewer, accounts, passkeys, accountLimits, tokenSecret, config, now, issueSession } = dependencies;
  const relyingParty = (request: ApiRequest) => relyingPartyOf(request, config.PASSKEY_RP_ID);

  /**
   * The notice that tells the account's address a passkey came or went (a `changed` mail, written with the change
   * or not at all): a passkey signs in alone, so one added by whoever held a session must not go unnoticed.
   */
  const noticeOf = (
    accountId: string,
    change: 'passkey-added' | 'passkey-removed',
    lang: Lang,
  ): AccountMailNotice => {
    const at = now();
    return { eventId: dependencies.newId(at), at, subject: { accountId, mail: 'changed', change, lang } };
  };

  /** The proof a change of passkeys asks for (see above), or its 4xx. */
  const proveFresh = async (request: ApiRequest, account: Viewer) => {
    const { password } = parseInput(proofSchema, request.jsonBody() ?? {}, request.lang);
    if (account.account.passwordHash !== '') {
      await checkCurrentPassword({ config, accountLimits }, account, password, request.lang, now());
      return;
    }
    const secret = await tokenSecret();
    const check = secret ? await checkToken(secret, bearerToken(request.authorization), now()) : undefined;
    const issuedAt = check?.ok ? check.claims.exp * 1000 - config.TOKEN_TTL_HOURS * 3_600_000 : 0;
    // A token that would have been issued in the future was issued under a longer TOKEN_TTL_HOURS: not fresh.
    if (now() - issuedAt > passkeyLimits.freshSignInMs || issuedAt > now()) {
      throw new AppError(
        'forbidden',
        translate(request.lang, 'passkeyNeedsFreshSignIn', { minutes: passkeyLimits.freshSignInMs / 60_000 }),
      );
    }
  };

  /** Counts one passkey sign-in request from the request's network, refusing it past the window's limit. */
  const admitSignIn = async (request: ApiRequest) => {
    if (!(await tokenSecret())) throw new AppError('forbidden', translate(request.lang, 'signInDisabled'));
    const time = now();
    const window = Math.floor(time / windowMs);
    const networkHash = hashIp(config.IP_HASH_SALT, clientNetwork(request.sourceIp));
    const expiresAt = Math.ceil(((window + 2) * windowMs) / 1000);
    if (
      (await accountLimits.countAttempt('passkey', networkHash, window, expiresAt)) > passkeySignInsPerWindow
    ) {
      const minutes = Math.max(1, Math.ceil(((window + 1) * windowMs - time) / 60_000));
      throw new AppError('rate_limited', translate(request.lang, 'tooManyPasskeySignIns', { minutes }));
    }
  };

  const list: Router = async (request) => {
    const account = await requireAccount(viewer, request.authorization, request.lang);
    const stored = await passkeys.list(account.id);
    return uncached(
      envelope({
        passkeys: stored.map(presentPasskey),
        max: passkeyLimits.perAccount,
        // An account without a password proves itself by a recent sign-in instead.
        needsPassword: account.account.passwordHash !== '',
      }),
    );
  };

  const registrationOptions: Router = async (request) => {
    const account = await requireAccount(viewer, request.authorization, request.lang);
    const party = relyingParty(request);
    await proveFresh(request, account);
    const existing = await passkeys.list(account.id);
    if (existing.length >= passkeyLimits.perAccount) {
      throw new AppError(
        'duplicate',
        translate(request.lang, 'passkeyLimit', { max: passkeyLimits.perAccount }),
      );
    }
    const userId = new TextEncoder().encode(account.id);
    // The user handle carries the id (WebAuthn allows 64 bytes): an id of another era that is longer cannot.
    if (userId.length > 64) throw invalidField(request.lang, 'account', 'has an id too long for a passkey');
    const { displayName, email } = account.account;
    const options = await generateRegistrationOptions({
      rpName: config.SITE_NAME ?? party.id,
      rpID: party.id,
      userName: email || displayName,
      userID: userId,
      userDisplayName: displayName,
      timeout: ceremonyTimeoutMs,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credentialId,
        transports: [...passkey.transports],
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await passkeys.putChallenge(
      options.challenge,
      { kind: 'register', accountId: account.id },
      now() + passkeyLimits.challengeMs,
    );
    return uncached(envelope(options));
  };

  const register: Router = async (request) => {
    const account = await requireAccount(viewer, request.authorization, request.lang);
    const body = parseInput(registerBodySchema, request.jsonBody(), request.lang);
    const party = relyingParty(request);
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response: { ...body.credential, clientExtensionResults: {} },
        // Taken once, and only the one handed out to this account: a replayed or foreign challenge is refused.
        expectedChallenge: (challenge) =>
          passkeys.takeChallenge(challenge, { kind: 'register', accountId: account.id }, now()),
        expectedOrigin: party.origins,
        expectedRPID: party.id,
        requireUserVerification: true,
      });
    } catch (error) {
      throw invalidField(request.lang, 'credential', `was not accepted (${messageOf(error)})`);
    }
    if (!verification.verified) throw invalidField(request.lang, 'credential', 'was not accepted');
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    // The id stored is the signed one; it must be the id the body gave (and its bound checked), not another.
    if (credential.id !== body.credential.id) {
      throw invalidField(request.lang, 'credential', 'id must be the id of the credential it attests');
    }
    const publicKey = Buffer.from(credential.publicKey).toString('base64url');
    if (publicKey.length > passkeyLimits.publicKeyChars) {
      throw invalidField(request.lang, 'credential', 'has a public key larger than this server keeps');
    }
    const passkey: Passkey = {
      accountId: account.id,
      credentialId: credential.id,
      publicKey,
      counter: credential.counter,
      transports: body.credential.response.transports ?? [],
      name: body.name,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      createdAt: now(),
    };
    switch (await passkeys.add(passkey, noticeOf(account.id, 'passkey-added', request.lang))) {
      case 'added':
        return envelope(presentPasskey(passkey));
      case 'exists':
        throw new AppError('duplicate', translate(request.lang, 'duplicate'), {
          credential: 'is one of this account’s passkeys already',
        });
      case 'limit':
        throw new AppError(
          'duplicate',
          translate(request.lang, 'passkeyLimit', { max: passkeyLimits.perAccount }),
        );
      case 'no-account':
        throw new AppError('unauthorized', translate(request.lang, 'accountRequired'));
    }
  };

  const remove: Router = async (request) => {
    const account = await requireAccount(viewer, request.authorization, request.lang);
    const { id } = parseInput(removePathSchema, { id: request.id }, request.lang);
    await proveFresh(request, account);
    if (!(await passkeys.remove(account.id, id, noticeOf(account.id, 'passkey-removed', request.lang)))) {
      throw new AppError(
        'not_found',
        translate(request.lang, 'invalidInput', { problems: 'id: no such passkey' }),
      );
    }
    return envelope('');
  };

  const signInOptions: Router = async (request) => {
    await admitSignIn(request);
    const party = relyingParty(request);
    const options = await generateAuthenticationOptions({
      rpID: party.id,
      timeout: ceremonyTimeoutMs,
      userVerification: 'required',
    });
    await passkeys.putChallenge(options.challenge, { kind: 'sign-in' }, now() + passkeyLimits.challengeMs);
    return uncached(envelope(options));
  };

  const signIn: Router = async (request) => {
    await admitSignIn(request);
    const { credential } = parseInput(signInBodySchema, request.jsonBody(), request.lang);
    const party = relyingParty(request);
    const accountId = accountIdOf(credential.response.userHandle);
    const passkey = accountId === undefined ? undefined : await passkeys.find(accountId, credential.id);
    if (!passkey) throw refused(request.lang);
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response: { ...credential, clientExtensionResults: {} },
        expectedChallenge: (challenge) => passkeys.takeChallenge(challenge, { kind: 'sign-in' }, now()),
        expectedOrigin: party.origins,
        expectedRPID: party.id,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
        },
        requireUserVerification: true,
      });
    } catch {
      // A foreign or spent challenge, another origin, a bad signature, a counter that went backwards.
      throw refused(request.lang);
    }
    if (!verification.verified) throw refused(request.lang);
    const time = now();
    const { newCounter } = verification.authenticationInfo;
    if (
      !(await passkeys.recordUse(passkey.accountId, passkey.credentialId, passkey.counter, newCounter, time))
    ) {
      throw refused(request.lang);
    }
    const account = await accounts.findById(passkey.accountId);
    if (!account) throw refused(request.lang);
    return envelope(await issueSession(account, request.lang));
  };

  return { list, registrationOptions, register, remove, signInOptions, signIn };
}

/** A library error's message, bounded, for the 400 that refuses a registration. */
function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : 'unknown reason').slice(0, 200);
}
