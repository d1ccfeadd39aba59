import { hashPassword } from '../shared/auth/password.js';
import { tokenFor } from '../shared/auth/token.js';
import { type ResolveViewer, requireAccount } from '../shared/auth/viewer.js';
import type { Config } from '../shared/config.js';
import type { AvatarFor } from '../shared/domain/avatar.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { presentUser } from '../shared/domain/present-user.js';
import { profileBodySchema } from '../shared/domain/profile-schemas.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { AccountChanges, AccountRepository } from '../shared/table/account-repository.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';

/**
 * `PUT /api/user` (the profile page's, in Waline's shape): the signed-in account, administrator or guest,
 * changes its display name, link (`url`) or password. The answer is Waline's envelope with the account as
 * `GET /api/token` shows it (Waline's own `data` is empty; its admin page reads none).
 *
 * A new password also revokes every token issued before (the account's session version goes up:
 * auth/viewer.ts), as when `npm run admin -- add --replace` sets one. The answer then carries a fresh
 * `token`, so the page that changed it stays signed in and can hand it to the widget.
 */
export function createUpdateProfile({
  viewer,
  accounts,
  tokenSecret,
  config,
  now,
  avatarFor,
}: {
  readonly viewer: ResolveViewer;
  readonly accounts: Pick<AccountRepository, 'update'>;
  /** The key that signs tokens: the one the caller's token was checked with. */
  readonly tokenSecret: SecretSource;
  readonly config: Pick<Config, 'TOKEN_TTL_HOURS'>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly avatarFor: AvatarFor;
}): Router {
  return async (request) => {
    const admin = await requireAccount(viewer, request.authorization, request.lang);
    const body = parseInput(profileBodySchema, request.jsonBody(), request.lang);
    // An address is changed with a confirmation mail, not here.
    if (body.email !== undefined && body.email.trim().toLowerCase() !== admin.email.toLowerCase()) {
      const rule = 'cannot be changed here';
      throw new AppError(
        'invalid_input',
        translate(request.lang, 'invalidInput', { problems: `email: ${rule}` }),
        { email: rule },
      );
    }

    const time = now();
    const secret = body.password ? await tokenSecret() : undefined;
    const changes: AccountChanges = {
      ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
      ...(body.url !== undefined ? { link: body.url } : {}),
      ...(body.password
        ? { passwordHash: await hashPassword(body.password), revokeTokens: true as const }
        : {}),
    };
    const update = await accounts.update(admin.id, changes, admin.sessionVersion);
    // Removed, or its tokens revoked, since the token was checked: the token is no longer good, and
    // nothing was written.
    if (update.status !== 'updated') {
      throw new AppError('unauthorized', translate(request.lang, 'accountRequired'));
    }
    const { account } = update;

    const user = presentUser(account, avatarFor);
    // The token was just verified with this key, so it is there; without it the page signs in again.
    return envelope(
      changes.passwordHash && secret
        ? { ...user, token: await tokenFor(secret, account, time, config.TOKEN_TTL_HOURS) }
        : user,
    );
  };
}
