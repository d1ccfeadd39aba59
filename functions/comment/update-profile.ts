import { hashPassword, verifyPassword } from '../shared/auth/password.js';
import { tokenFor } from '../shared/auth/token.js';
import { type ResolveViewer, requireAccount, type Viewer } from '../shared/auth/viewer.js';
import type { Config } from '../shared/config.js';
import { profileChangeBodySchema, type ProfileChangeBody } from '../shared/domain/account-schemas.js';
import type { AvatarFor } from '../shared/domain/avatar.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import { presentUser } from '../shared/domain/present-user.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import { normalizeAddress } from '../shared/notify/normalize-address.js';
import { sealAddress } from '../shared/notify/sealed-address.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { CachedAuthorProfiles } from '../shared/caches/cached-author-profiles.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import { accountMailAllowance, takeAccountMailSlot } from './account-mail-allowance.js';
import type { QueueAccountMail } from '../shared/table/account-mail-event.js';
import type { AccountChanges, AccountRepository } from '../shared/table/account-repository.js';

/** Checks of one account's current password per window: guesses stay slow even with a stolen token. */
export const passwordChecksPerWindow = 5;
const windowMs = 15 * 60 * 1000;

/** What the profile route takes. */
export interface UpdateProfileDependencies {
  readonly viewer: ResolveViewer;
  readonly accounts: Pick<AccountRepository, 'update'>;
  readonly accountLimits: Pick<AccountLimits, 'countAttempt' | 'takeMailSlot'>;
  /** The keyed hash a new address's allowance of address-change mails is kept under. */
  readonly hashAddress: HashAddress;
  readonly queueAccountMail: QueueAccountMail;
  /** The key that signs tokens: the one the caller's token was checked with. */
  readonly tokenSecret: SecretSource;
  /** The link key: it seals the new address an address-change link is mailed to. */
  readonly linkSecret: SecretSource;
  readonly config: Pick<Config, 'TOKEN_TTL_HOURS' | 'IP_HASH_SALT'>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly newId: (time: number) => string;
  readonly avatarFor: AvatarFor;
  /** The author overlay's cache: this instance shows the new profile on the account's comments at once. */
  readonly authorProfiles?: Pick<CachedAuthorProfiles, 'forget'>;
}

/** `label` and `type` are administrators' to set (PUT /api/user/{id}): asking for them here is refused. */
function refuseAdministratorFields(body: unknown, lang: Lang): void {
  if (typeof body !== 'object' || body === null) return;
  for (const field of ['label', 'type'] as const) {
    if ((body as Record<string, unknown>)[field] !== undefined) {
      const message = translate(lang, 'administratorsOnlyField', { field });
      throw new AppError('forbidden', message, { [field]: 'administrators only, with PUT /api/user/{id}' });
    }
  }
}

/**
 * A change of the password or the address needs the current password: counted per account and window before
 * it is hashed (a token read off the blog cannot guess it fast), then verified. Adding or removing a passkey
 * asks for it too (passkeys.ts).
 */
export async function checkCurrentPassword(
  dependencies: {
    readonly config: Pick<Config, 'IP_HASH_SALT'>;
    readonly accountLimits: Pick<AccountLimits, 'countAttempt'>;
  },
  viewer: Viewer,
  given: string | undefined,
  lang: Lang,
  time: number,
): Promise<void> {
  if (!given) {
    throw new AppError('invalid_input', translate(lang, 'currentPasswordRequired'), {
      currentPassword: 'is required to change the password or the address',
    });
  }
  const window = Math.floor(time / windowMs);
  const accountHash = hashIp(dependencies.config.IP_HASH_SALT, `reauth:${viewer.id}`);
  const expiresAt = Math.ceil(((window + 2) * windowMs) / 1000);
  if (
    (await dependencies.accountLimits.countAttempt('reauth', accountHash, window, expiresAt)) >
    passwordChecksPerWindow
  ) {
    const minutes = Math.max(1, Math.ceil(((window + 1) * windowMs - time) / 60_000));
    throw new AppError('rate_limited', translate(lang, 'tooManyPasswordChecks', { minutes }));
  }
  if (!(await verifyPassword(given, viewer.account.passwordHash))) {
    throw new AppError('forbidden', translate(lang, 'currentPasswordWrong'), {
      currentPassword: 'is not the account\u2019s password',
    });
  }
}

/**
 * The changes `body` asks for now (a new password hashed, revoking every token). Never the address: that waits
 * for the link mailed to it ({@link mailAddressChangeLink}).
 */
async function changesOf(body: ProfileChangeBody): Promise<AccountChanges> {
  return {
    ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
    ...(body.url !== undefined ? { link: body.url } : {}),
    ...(body.avatar !== undefined ? { avatar: body.avatar } : {}),
    ...(body.password
      ? { passwordHash: await hashPassword(body.password), revokeTokens: true as const }
      : {}),
  };
}

/**
 * Takes one of the new address's address-change mails of the day, before anything is written: the account does not
 * take an address until its mailbox answers the link ({@link queueAddressChangeLink}), so a typo, or a token read off
 * the blog, moves nobody's sign-in name to a mailbox they do not hold. Needs the link key, which seals the address in
 * the event and the link; answers it.
 */
async function admitAddressChange(
  dependencies: UpdateProfileDependencies,
  address: string,
  lang: Lang,
  time: number,
): Promise<string> {
  const key = await dependencies.linkSecret();
  if (!key) throw new AppError('unavailable', translate(lang, 'addressChangeUnavailable'));
  const plan = accountMailAllowance['confirm-address'];
  if (
    !(await takeAccountMailSlot(dependencies.accountLimits, dependencies.hashAddress(address), plan, time))
  ) {
    throw new AppError('rate_limited', translate(lang, 'tooManyAddressChanges', { perDay: plan.perDay }));
  }
  return key;
}

/**
 * Queues the single-use link (confirm-address.ts follows it) to `address`, bound to the session version the account
 * has now: a password change or a ban after this request kills it, whenever the mail goes out.
 */
async function queueAddressChangeLink(
  dependencies: UpdateProfileDependencies,
  account: { readonly id: string; readonly sessionVersion: number },
  sealedTo: string,
  lang: Lang,
  time: number,
): Promise<void> {
  await dependencies.queueAccountMail(dependencies.newId(time), time, {
    accountId: account.id,
    mail: 'confirm-address',
    lang,
    sealedTo,
    version: account.sessionVersion,
  });
}

/**
 * `PUT /api/user` (the profile page's, in Waline's shape): any signed-in account changes its display name,
 * link (`url`) or avatar (an https address). Changing the password or the address needs `currentPassword`,
 * checked with a limit per account before any hash. A new address is not taken now: it is mailed a single-use link
 * (24 hours) that makes the change, and the answer says `pending_email`. `label` and `type` are refused:
 * administrators set them (PUT /api/user/{id}). After a password change every token issued before stops working
 * and the answer carries a fresh `token`; the account's address is mailed. The answer is the account as
 * `GET /api/token` shows it.
 */
export function createUpdateProfile(dependencies: UpdateProfileDependencies): Router {
  const { viewer, accounts, tokenSecret, config, now, newId, avatarFor } = dependencies;
  return async (request) => {
    const caller = await requireAccount(viewer, request.authorization, request.lang);
    const raw = request.jsonBody();
    refuseAdministratorFields(raw, request.lang);
    const body = parseInput(profileChangeBodySchema, raw, request.lang);
    const time = now();
    // An empty password changes nothing, as on Waline; an address that normalises as the account's is no change.
    const addressChanges =
      body.email !== undefined && normalizeAddress(body.email) !== normalizeAddress(caller.email);
    if (body.password || addressChanges) {
      await checkCurrentPassword(dependencies, caller, body.currentPassword, request.lang, time);
    }
    const changes = await changesOf(body);
    const secret = changes.passwordHash ? await tokenSecret() : undefined;
    // Before anything is written: an address that cannot be mailed its link now (no link key, its day's links all
    // sent) refuses the whole request, and nothing else changes either.
    const newAddress = addressChanges ? body.email : undefined;
    const linkKey =
      newAddress === undefined
        ? undefined
        : await admitAddressChange(dependencies, newAddress, request.lang, time);

    const update = await accounts.update(caller.id, changes, caller.sessionVersion);
    // Removed, or its tokens revoked, since the token was checked: the token is no longer good, nothing written.
    if (update.status !== 'updated')
      throw new AppError('unauthorized', translate(request.lang, 'accountRequired'));
    const { account } = update;
    dependencies.authorProfiles?.forget(account.id);

    if (changes.passwordHash) {
      await dependencies.queueAccountMail(newId(time), time, {
        accountId: account.id,
        mail: 'changed',
        change: 'password',
        lang: request.lang,
      });
    }
    if (newAddress !== undefined && linkKey !== undefined) {
      await queueAddressChangeLink(
        dependencies,
        account,
        sealAddress(linkKey, newAddress),
        request.lang,
        time,
      );
    }

    const user = {
      ...presentUser(account, avatarFor),
      ...(addressChanges ? { pending_email: body.email } : {}),
    };
    // The token was just verified with this key, so it is there; without it the page signs in again.
    return envelope(
      changes.passwordHash && secret
        ? { ...user, token: await tokenFor(secret, account, time, config.TOKEN_TTL_HOURS) }
        : user,
    );
  };
}
