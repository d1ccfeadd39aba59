import type { ResolveViewer } from '../shared/auth/viewer.js';
import type { AvatarFor } from '../shared/domain/avatar.js';
import { presentUser } from '../shared/domain/present-user.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { AdminRepository } from '../shared/table/admin-repository.js';

/**
 * `GET /api/token` and `GET /token` (what the widget calls after a mobile sign-in): the signed-in
 * administrator, or `{}` for anyone else, as Waline answers.
 */
export function createCurrentUser({
  viewer,
  admins,
  avatarFor,
}: {
  readonly viewer: ResolveViewer;
  readonly admins: Pick<AdminRepository, 'find'>;
  readonly avatarFor: AvatarFor;
}): Router {
  return async (request) => {
    const admin = await viewer(request.authorization);
    const account = admin ? await admins.find(admin.email) : undefined;
    if (!account) return envelope({});
    return envelope(presentUser(account, avatarFor));
  };
}
