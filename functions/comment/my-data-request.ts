import { normalizeAddress } from '../shared/domain/normalize-address.js';
import type { Config } from '../shared/config.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { myDataRequestBodySchema } from '../shared/domain/my-data-schemas.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import { sealAddress } from '../shared/notify/sealed-address.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { QueueAccountMail } from '../shared/table/account-mail-event.js';
import { accountMailAllowance, takeAccountMailSlot } from './account-mail-allowance.js';
import type { CaptchaGuard } from './captcha-guard.js';
import { admitNetworkAttempt } from './network-attempts.js';

/** Data requests one IP (an IPv6 /64) may make per hour. */
export const dataRequestsPerWindow = 10;

/** What the data request takes. */
export interface MyDataRequestDependencies {
  readonly limits: Pick<AccountLimits, 'countAttempt' | 'takeMailSlot'>;
  readonly captcha: CaptchaGuard;
  readonly queueMail: QueueAccountMail;
  readonly hashAddress: HashAddress;
  /** The link key: the address travels to the notifier sealed with it. */
  readonly linkSecret: SecretSource;
  readonly config: Pick<Config, 'IP_HASH_SALT'>;
  readonly now: () => number;
  readonly newId: (time: number) => string;
}

/**
 * `POST /api/my-data {email}`: mails the address a link to its data (`/ui/my-data?token=`, 1 hour), whether or
 * not anything is stored for it: the answer, and what is written, are the same for every address (the mail's
 * event, with the address sealed), so neither tells whether the address commented. Before anything costly: the
 * body's rules, the captcha's token, the network's requests per hour (10); then the captcha's verdict, and the
 * address's data mails per day (3: past that the answer is the same, and nothing is mailed).
 */
export function createMyDataRequest(dependencies: MyDataRequestDependencies): Router {
  const { limits, captcha, queueMail, hashAddress, linkSecret, config, now, newId } = dependencies;
  return async (request) => {
    const time = now();
    const body = parseInput(myDataRequestBodySchema, request.jsonBody(), request.lang);
    const { turnstile, recaptchaV3 } = body;
    const demand = await captcha.demand({ turnstile, recaptchaV3 }, request);
    await admitNetworkAttempt(limits, {
      action: 'my-data',
      perWindow: dataRequestsPerWindow,
      tooMany: 'tooManyDataRequests',
      sourceIp: request.sourceIp,
      salt: config.IP_HASH_SALT,
      lang: request.lang,
      time,
    });
    if (!(await captcha.verify(demand, request)).passed) {
      throw new AppError('unavailable', translate(request.lang, 'dataRequestUnavailable'));
    }
    const key = await linkSecret();
    if (!key) throw new AppError('unavailable', translate(request.lang, 'dataLinksOff'));
    const addressHash = hashAddress(body.email);
    if (await takeAccountMailSlot(limits, addressHash, accountMailAllowance['my-data'], time)) {
      await queueMail(newId(time), time, {
        accountId: '',
        mail: 'my-data',
        lang: request.lang,
        // The mailbox whose data the link opens: the normalised address (`+tag` and Gmail's dots dropped), so
        // proving `ann+x@…` never opens the data of every `ann…@…`.
        sealedTo: sealAddress(key, normalizeAddress(body.email)),
        addressHash,
      });
    }
    return envelope('');
  };
}
