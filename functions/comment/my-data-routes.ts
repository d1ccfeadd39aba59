import type { ResolveCaller } from '../shared/auth/viewer.js';
import { viewerOf } from '../shared/auth/viewer.js';
import type { Router } from '../shared/http/http-function.js';
import type { ModerationRepository } from '../shared/table/moderation-repository.js';
import type { MyDataStore } from '../shared/table/my-data-store.js';
import { createMyDataDownload } from './my-data-download.js';
import { createMyDataErase } from './my-data-erase.js';
import { createMyDataLog } from './my-data-log.js';
import { createMyDataRequest } from './my-data-request.js';
import { createDataSubjectResolver } from './my-data-subject.js';
import { captchaWidgetOf } from './pages/captcha-widget.js';
import { myDataPage } from './pages/my-data-page.js';
import type { AccountLifeDependencies } from './account-life-routes.js';
import type { commentDataRouteKeys } from './routes.js';

/** What a commenter's data routes take: what an account's life takes, and who calls, the moderation and the store. */
export interface MyDataDependencies extends AccountLifeDependencies {
  readonly caller: ResolveCaller;
  readonly moderation: ModerationRepository;
  readonly myData: MyDataStore;
}

/** A commenter's own data (issue 28, routes.ts `commentDataRouteKeys`): the request, download, erase, log and page. */
export function createMyDataRoutes(
  dependencies: MyDataDependencies,
): Record<(typeof commentDataRouteKeys)[number], Router> {
  const { config, caller, accounts, accountLimits: limits, captcha, readLink, linkSecret } = dependencies;
  const { hashAddress, moderation, myData: store, now, newId } = dependencies;
  const subjectOf = createDataSubjectResolver({ readLink, linkSecret, caller, accounts, hashAddress });
  return {
    'POST /api/my-data': createMyDataRequest({
      limits,
      captcha,
      queueMail: dependencies.queueAccountMail,
      hashAddress,
      linkSecret,
      config,
      now,
      newId,
    }),
    'GET /api/my-data': createMyDataDownload({ subjectOf, store, accounts, hashAddress, now }),
    'DELETE /api/my-data': createMyDataErase({
      subjectOf,
      store,
      moderation,
      accounts,
      limits,
      hashAddress,
      config,
      now,
    }),
    'GET /api/my-data/log': createMyDataLog({ viewer: viewerOf(caller), store }),
    'GET /ui/my-data': async () => myDataPage({ captcha: captchaWidgetOf(config) }),
  };
}
