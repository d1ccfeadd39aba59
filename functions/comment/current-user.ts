import type { ResolveViewer } from '../shared/auth/viewer.js';
import type { AvatarFor } from '../shared/domain/avatar.js';
import { presentUser } from '../shared/domain/present-user.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';

/**
 * `GET /api/token` and `GET /token` (what the widget calls after a mobile sign-in): the signed-in account,
 * administrator or guest, or `{}` for anyone else (banned, revoked, unconfirmed), as Waline answers.
 */
export function createCurrentUser({
  viewer,
  avatarFor,
}: {
  readonly viewer: ResolveViewer;
  readonly avatarFor: AvatarFor;
}): Router {
  return async (request) => {
    // The resolver read the account for this request: no second read.
    const signedIn = await viewer(request.authorization);
    return envelope(signedIn ? presentUser(signedIn.account, avatarFor) : {});
  };
}
