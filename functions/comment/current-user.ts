import { resolveViewer } from '../shared/auth/viewer.js';
import { presentUser } from '../shared/domain/present-user.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { Services } from '../shared/services.js';

/**
 * `GET /api/token` and `GET /token` (what the widget calls after a mobile sign-in): the signed-in
 * administrator, or `{}` for anyone else, as Waline answers.
 */
export function createCurrentUser(services: Services): Router {
  return async (request) => {
    const viewer = await resolveViewer(services, request);
    const account = viewer ? await services.admins.find(viewer.email) : undefined;
    if (!account) return envelope({});
    return envelope(presentUser(account, services.presentation.avatarFor));
  };
}
