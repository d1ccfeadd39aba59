import type { Config } from '../shared/config.js';
import type { Router } from '../shared/http/http-function.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { QueueAccountMail } from '../shared/table/account-mail-event.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { CaptchaGuard } from './captcha-guard.js';
import { createConfirmAccount, createShowAccountConfirmation } from './confirm-account.js';
import {
  createConfirmAddressChange,
  createShowAddressChange,
  isAddressChangeLink,
} from './confirm-address.js';
import { captchaWidgetOf } from './pages/captcha-widget.js';
import { loadUiPages } from './pages/load-ui-pages.js';
import type { ReadLink } from './read-link.js';
import { createRegisterAccount } from './register-account.js';
import { createRequestPasswordReset, createResetPassword } from './reset-password.js';
import type { commentAccountRouteKeys } from './routes.js';

/** What the account life-cycle routes take. */
export interface AccountLifeDependencies {
  readonly config: Config;
  readonly accounts: AccountRepository;
  readonly accountLimits: AccountLimits;
  readonly queueAccountMail: QueueAccountMail;
  readonly captcha: CaptchaGuard;
  readonly readLink: ReadLink;
  /** The link key: an address-change link carries its new address sealed with it. */
  readonly linkSecret: SecretSource;
  readonly hashAddress: HashAddress;
  readonly now: () => number;
  readonly newId: (time: number) => string;
}

/** The routes of an account's life (routes.ts `commentAccountRouteKeys`) and their pages. */
export function createAccountLifeRoutes(
  dependencies: AccountLifeDependencies,
): Record<
  (typeof commentAccountRouteKeys)[number] | 'GET /ui/register' | 'GET /ui/forgot' | 'GET /ui/reset',
  Router
> {
  const { config, accounts, accountLimits: limits, queueAccountMail: queueMail, readLink } = dependencies;
  const { captcha, hashAddress, now, newId } = dependencies;
  const site = { name: config.SITE_NAME, url: config.SITE_URL };
  const confirm = { readLink, accounts, limits, config, now, site };
  const addressChange = { ...confirm, linkSecret: dependencies.linkSecret, queueMail, newId };
  // One address for both account links, as Waline's: a registration's confirmation, or an address change.
  const byLink =
    (confirmation: Router, change: Router): Router =>
    async (request) =>
      (await isAddressChangeLink(readLink, request)) ? change(request) : confirmation(request);
  const reset = { ...confirm, linkSecret: dependencies.linkSecret, queueMail, hashAddress, newId };
  return {
    'POST /api/user': createRegisterAccount({
      accounts,
      limits,
      queueMail,
      captcha,
      config,
      hashAddress,
      now,
      newId,
    }),
    'GET /api/verification': byLink(
      createShowAccountConfirmation(confirm),
      createShowAddressChange(addressChange),
    ),
    'POST /api/verification': byLink(
      createConfirmAccount(confirm),
      createConfirmAddressChange(addressChange),
    ),
    'PUT /api/user/password': createRequestPasswordReset(reset),
    'POST /api/user/password': createResetPassword(reset),
    'GET /ui/register': async () => (await loadUiPages()).registerPage({ captcha: captchaWidgetOf(config) }),
    'GET /ui/forgot': async () => (await loadUiPages()).forgotPage(),
    'GET /ui/reset': async () => (await loadUiPages()).resetPage(),
  };
}
