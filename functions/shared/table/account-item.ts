import { type Account, accountAttributes as a } from '../domain/account.js';
import { normalizeAddress } from '../domain/normalize-address.js';
import { isPlainAddress } from '../domain/mail-address.js';
import { attributes, entities, keys } from './keys.js';

/**
 * The items of an account (docs/data-model.md, "Accounts"): the account itself, keyed by its id and placed
 * in the accounts' partition of the held-by-time index, and the claim of its address, which names the
 * account and its type (a comment's mail is checked against it: submit-marks.ts).
 */

/** The account item of `account`: its attributes, its keys and its place in the held-by-time index. */
export function accountItem(account: Account): Record<string, unknown> {
  const { totp, ...rest } = account;
  const optional = (name: string, value: string | undefined) =>
    value === undefined || value === '' ? {} : { [name]: value };
  return {
    ...keys.account(account.id),
    entity: entities.account,
    [attributes.heldPk]: keys.accountsPartition,
    [attributes.heldSk]: account.id,
    [a.id]: rest.id,
    [a.email]: rest.email,
    [a.displayName]: rest.displayName,
    ...optional(a.link, rest.link),
    ...optional(a.avatar, rest.avatar),
    ...optional(a.label, rest.label),
    [a.type]: rest.type,
    [a.state]: rest.state,
    [a.passwordHash]: rest.passwordHash,
    [a.sessionVersion]: rest.sessionVersion,
    ...(totp
      ? {
          [a.totpSecret]: totp.secret,
          [a.totpLastStep]: totp.lastStep,
          // A string set, as the second factor's writes keep it (account-totp.ts removes a used code with DELETE);
          // DynamoDB stores no empty set.
          ...(totp.recoveryHashes.length > 0 ? { [a.recoveryHashes]: new Set(totp.recoveryHashes) } : {}),
        }
      : {}),
    [a.createdAt]: rest.createdAt,
    ...(rest.updatedAt === undefined ? {} : { [a.updatedAt]: rest.updatedAt }),
    ...optional(a.walineId, rest.walineId),
    ...(rest.identity
      ? { [a.identityProvider]: rest.identity.provider, [a.identitySubject]: rest.identity.subject }
      : {}),
    ...(rest.emailVerified === undefined ? {} : { [a.emailVerified]: rest.emailVerified }),
  };
}

/** The claim of `account`'s address: which account has it, and that account's type. */
export function addressClaimItem(account: Pick<Account, 'id' | 'email' | 'type'>): Record<string, unknown> {
  return {
    ...keys.accountEmail(normalizeAddress(account.email)),
    entity: entities.accountEmail,
    [a.id]: account.id,
    [a.type]: account.type,
  };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const types = new Set(['administrator', 'guest', 'banned']);
const states = new Set(['active', 'unconfirmed', 'awaiting-approval']);

/** An account item read back as an Account; undefined for anything that is not one. */
export function toAccount(item: Record<string, unknown> | undefined): Account | undefined {
  if (!item || typeof item[a.passwordHash] !== 'string' || typeof item[a.id] !== 'string') return undefined;
  const type = String(item[a.type]);
  const state = String(item[a.state]);
  const secret = text(item[a.totpSecret]);
  const optional = (name: keyof Account, value: unknown) =>
    text(value) === undefined ? {} : { [name]: text(value) };
  const updatedAt = Number(item[a.updatedAt]);
  return {
    id: item[a.id] as string,
    email: String(item[a.email] ?? ''),
    displayName: String(item[a.displayName] ?? ''),
    ...optional('link', item[a.link]),
    ...optional('avatar', item[a.avatar]),
    ...optional('label', item[a.label]),
    // An item of an unknown type or state is read as the most restricted one: it never grants more.
    type: types.has(type) ? (type as Account['type']) : 'banned',
    state: states.has(state) ? (state as Account['state']) : 'unconfirmed',
    passwordHash: item[a.passwordHash] as string,
    sessionVersion: Number(item[a.sessionVersion]) || 0,
    ...(secret
      ? {
          totp: {
            secret,
            lastStep: Number(item[a.totpLastStep]) || 0,
            recoveryHashes: Array.isArray(item[a.recoveryHashes])
              ? (item[a.recoveryHashes] as unknown[]).map(String)
              : item[a.recoveryHashes] instanceof Set
                ? [...(item[a.recoveryHashes] as Set<unknown>)].map(String)
                : [],
          },
        }
      : {}),
    createdAt: Number(item[a.createdAt]) || 0,
    ...(Number.isFinite(updatedAt) && item[a.updatedAt] !== undefined ? { updatedAt } : {}),
    ...optional('walineId', item[a.walineId]),
    ...identityOf(item),
    ...(typeof item[a.emailVerified] === 'boolean'
      ? { emailVerified: item[a.emailVerified] as boolean }
      : {}),
  };
}

/** The external identity an account item names, as `{identity}`; nothing when it names none. */
function identityOf(item: Record<string, unknown>): Pick<Account, 'identity'> {
  const provider = text(item[a.identityProvider]);
  const subject = text(item[a.identitySubject]);
  return provider && subject ? { identity: { provider, subject } } : {};
}

/** The link of an external identity to its account (issue 28): found by `(provider, subject)`. */
export function identityLinkItem(
  account: Pick<Account, 'id'> & { readonly identity: NonNullable<Account['identity']> },
): Record<string, unknown> {
  return {
    ...keys.accountIdentity(account.identity.provider, account.identity.subject),
    entity: entities.accountIdentity,
    [a.id]: account.id,
  };
}

/**
 * The contact item of an account made from an external identity, when its address is a plain one (issue 28):
 * what a commenter's erase of that address finds it by. None for an account without an address.
 */
export function contactItems(account: Pick<Account, 'id' | 'email'>): Record<string, unknown>[] {
  if (!isPlainAddress(account.email)) return [];
  return [
    {
      ...keys.accountContact(normalizeAddress(account.email), account.id),
      entity: entities.accountContact,
      [a.id]: account.id,
    },
  ];
}

/** Every attribute of an account item: what a BatchGet of the list's page reads back. */
export const accountItemAttributes = Object.values(a);
