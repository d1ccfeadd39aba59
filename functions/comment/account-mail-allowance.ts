import type { Lang } from '../shared/domain/messages.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { AccountMailKind, QueueAccountMail } from '../shared/table/account-mail-event.js';

/** How many mails of one kind one address may be sent per UTC day. */
export interface AccountMailPlan {
  readonly mail: Exclude<AccountMailKind, 'changed'>;
  readonly perDay: number;
}

/**
 * The account mails anyone can have the site send, each bounded per address (its keyed hash) and day, so
 * that a stranger typing someone's address cannot flood them: a confirmation link sent again at most 3 times,
 * "someone tried to register with your address" once, a reset link 5 times, an address-change link (to the new
 * address: its account's owner asks, signed in and with the password) 3 times, a data link (`/ui/my-data`) 3
 * times. The `changed` mail follows a
 * change the account's owner made signed in, and is not capped.
 */
export const accountMailAllowance = {
  confirm: { mail: 'confirm', perDay: 3 },
  'already-registered': { mail: 'already-registered', perDay: 1 },
  reset: { mail: 'reset', perDay: 5 },
  'confirm-address': { mail: 'confirm-address', perDay: 3 },
  'my-data': { mail: 'my-data', perDay: 3 },
} as const satisfies Record<AccountMailPlan['mail'], AccountMailPlan>;

const dayMs = 86_400_000;

/** Takes one of `plan`'s slots of today for `addressHash`; false when the day's are all taken. */
export function takeAccountMailSlot(
  limits: Pick<AccountLimits, 'takeMailSlot'>,
  addressHash: string,
  plan: AccountMailPlan,
  time: number,
): Promise<boolean> {
  const day = new Date(time).toISOString().slice(0, 10);
  // Kept a day past the day's end, then TTL removes it.
  const expiresAt = Math.ceil((Math.floor(time / dayMs) * dayMs + 2 * dayMs) / 1000);
  return limits.takeMailSlot(addressHash, `${plan.mail}#D#${day}`, plan.perDay, expiresAt);
}

/** What queuing a capped account mail takes. */
export interface AccountMailing {
  readonly limits: Pick<AccountLimits, 'takeMailSlot'>;
  readonly queueMail: QueueAccountMail;
  /** The keyed hash of a normalised address: the allowance is kept under it. */
  readonly hashAddress: HashAddress;
  /** A new ULID for `time`: each mail event's id. */
  readonly newId: (time: number) => string;
}

/** Queues `plan`'s mail to the account `accountId` when its address has a slot of that kind left today. */
export async function mailIfAllowed(
  { limits, queueMail, hashAddress, newId }: AccountMailing,
  mail: { readonly address: string; readonly accountId: string; readonly lang: Lang },
  plan: AccountMailPlan,
  time: number,
): Promise<void> {
  if (!(await takeAccountMailSlot(limits, hashAddress(mail.address), plan, time))) return;
  await queueMail(newId(time), time, { accountId: mail.accountId, mail: plan.mail, lang: mail.lang });
}
