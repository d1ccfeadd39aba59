/**
 * From the source's registered users to the accounts to write: addresses checked and unique once
 * normalised (the first user of an address is kept, administrators first), fields cleaned as a live
 * profile would be, deterministic ids. Pure: no I/O. Which of them the table already has is decided when
 * the plan runs (run-import.ts).
 */
import type { Account } from '../../functions/shared/domain/account.js';
import { limits } from '../../functions/shared/domain/limits.js';
import { isPlainAddress } from '../../functions/shared/domain/mail-address.js';
import { normalizeAddress } from '../../functions/shared/notify/normalize-address.js';
import { submitBodySchema } from '../../functions/shared/domain/comment-schemas.js';
import { importedAccountId } from './import-id.js';
import type { SourceAccount } from './source.js';

/** One account ready to write, with the source id its comments' `user_id` names. */
export interface PlannedAccount {
  readonly ref: string;
  readonly sourceId: string;
  readonly account: Account;
}

/** What {@link planAccounts} found. */
export interface AccountPlan {
  readonly accounts: PlannedAccount[];
  readonly skipped: { ref: string; reason: string }[];
  /** Repairs made, by kind, with how many. */
  readonly repairs: Map<string, number>;
  readonly notes: string[];
}

/** The longest badge kept: a label is a short word next to a name. */
export const importedLabelChars = 64;

const linkRule = submitBodySchema.shape.link;
const cut = (value: string, max: number) => Array.from(value).slice(0, max).join('');
/** An avatar is shown as an image: an http(s) address within the link bound, nothing else. */
const isWebAddress = (value: string) => /^https?:\/\/\S+$/i.test(value) && linkRule.safeParse(value).success;

/** Builds the accounts of `users`, read from a source of `format`. */
export function planAccounts(format: string, users: readonly SourceAccount[]): AccountPlan {
  const skipped: { ref: string; reason: string }[] = [];
  const repairs = new Map<string, number>();
  const repaired = (kind: string) => repairs.set(kind, (repairs.get(kind) ?? 0) + 1);

  // Administrators first, then the oldest: of two users of one address, that one is kept.
  const ordered = users
    .map((user, order) => ({ user, order }))
    .sort(
      (a, b) =>
        Number(b.user.type === 'administrator') - Number(a.user.type === 'administrator') ||
        (a.user.createdAt ?? Infinity) - (b.user.createdAt ?? Infinity) ||
        a.order - b.order,
    )
    .map(({ user }) => user);
  const seenIds = new Map<string, string>();
  const seenAddresses = new Map<string, string>();
  const accounts: PlannedAccount[] = [];
  let withoutPassword = 0;
  let passwordsDropped = 0;
  let totpDropped = 0;
  let unknownTypes = 0;
  let oauthDropped = 0;
  for (const user of ordered) {
    const skip = (reason: string) => skipped.push({ ref: user.ref, reason });
    const sameId = seenIds.get(user.sourceId);
    if (sameId) {
      skip(`user id ${user.sourceId} appears twice in the source; ${sameId} was kept`);
      continue;
    }
    seenIds.set(user.sourceId, user.ref);
    const { createdAt } = user;
    if (createdAt === undefined) {
      skip('its creation time is missing or unreadable (its comments keep the name only)');
      continue;
    }
    if (!isPlainAddress(user.email)) {
      skip('its email is missing or not one address (its comments keep the name only)');
      continue;
    }
    const address = normalizeAddress(user.email);
    const first = seenAddresses.get(address);
    if (first) {
      skip(`its address is that of ${first} once normalised (${address}); the first was kept`);
      continue;
    }
    seenAddresses.set(address, user.ref);

    let displayName = user.displayName.trim();
    if (displayName === '') {
      displayName = 'Anonymous';
      repaired('accounts without a display name named Anonymous');
    } else if (Array.from(displayName).length > limits.nickChars) {
      displayName = cut(displayName, limits.nickChars);
      repaired('display names cut to the limit');
    }
    const link = user.link.trim();
    const keepLink = link !== '' && linkRule.safeParse(link).success;
    const avatar = user.avatar.trim();
    const keepAvatar = avatar !== '' && isWebAddress(avatar);
    const label = cut(user.label.trim(), importedLabelChars);
    if (link !== '' && !keepLink) repaired('account links a visitor could not set dropped');
    if (avatar !== '' && !keepAvatar) repaired('avatars that are not http(s) addresses dropped');
    if (label !== user.label.trim()) repaired('labels cut to the limit');
    if (user.passwordHash === '') withoutPassword++;
    if (user.passwordDropped) passwordsDropped++;
    if (user.totpDropped) totpDropped++;
    if (user.unknownType !== undefined) unknownTypes++;
    if (user.oauthDropped) oauthDropped++;

    const account: Account = {
      id: user.ownId ?? importedAccountId(format, user.sourceId, createdAt),
      email: user.email,
      displayName,
      ...(keepLink ? { link } : {}),
      ...(keepAvatar ? { avatar } : {}),
      ...(label === '' ? {} : { label }),
      type: user.type,
      state: user.state,
      passwordHash: user.passwordHash,
      sessionVersion: 0,
      createdAt,
      // A Marginalia export's account is Marginalia's own: it has no Waline id.
      ...(user.ownId === undefined ? { walineId: user.sourceId } : {}),
      ...(user.identity ? { identity: user.identity } : {}),
      ...(user.emailVerified === undefined ? {} : { emailVerified: user.emailVerified }),
    };
    accounts.push({ ref: user.ref, sourceId: user.sourceId, account });
  }

  const notes: string[] = [];
  const administrators = accounts.filter((planned) => planned.account.type === 'administrator');
  if (administrators.length > 0) {
    // Waline made its first registrant an administrator: the operator sees whom the import makes one.
    notes.push(
      `administrators imported (they sign in to moderate; check them): ${administrators.map((planned) => planned.account.email).join(', ')}`,
    );
  }
  if (withoutPassword > 0) {
    notes.push(
      `${withoutPassword} accounts have no password hash that can be kept: they set one through a password reset (/ui/forgot) before they sign in`,
    );
  }
  if (passwordsDropped > 0) {
    notes.push(
      `${passwordsDropped} of them had a password hash that is not bcrypt (phpass $P$, or a custom encryptPassword), not kept`,
    );
  }
  if (totpDropped > 0) {
    notes.push(
      `${totpDropped} accounts had two-factor authentication: Waline kept its secret in clear and sent it to the browser, so it is not imported; they enrol again from their profile`,
    );
  }
  if (oauthDropped > 0) {
    notes.push(
      `${oauthDropped} accounts had social sign-ins (github, qq...) bound: not kept, they sign in with their address and password`,
    );
  }
  if (unknownTypes > 0)
    notes.push(`${unknownTypes} accounts of a type Waline does not know were kept as guests`);
  return { accounts, skipped, repairs, notes };
}
