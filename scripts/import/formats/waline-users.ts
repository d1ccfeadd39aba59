/**
 * Waline's `Users` rows, in any file that holds them (the admin export of any storage, a LeanCloud
 * `Users` class file, a Marginalia export), read into accounts. Waline writes `type` as `administrator`,
 * `guest`, `banned` or `verify:<code>:<expiry>` (registered, address not confirmed yet); its passwords
 * are phpass's bcrypt (`$2a$08$...`); its `2fa` is the TOTP secret in clear.
 */
import type { AccountState, AccountType } from '../../../functions/shared/domain/account.js';
import { externalIdentityLimits } from '../../../functions/shared/domain/external-identity.js';
import type { SourceAccount } from '../source.js';
import { idOf, text } from '../values.js';

const accountTypes: ReadonlySet<string> = new Set<AccountType>(['administrator', 'guest', 'banned']);
const accountStates: ReadonlySet<string> = new Set<AccountState>([
  'active',
  'unconfirmed',
  'awaiting-approval',
]);

/**
 * A bcrypt hash: what Waline's phpass writes (`$2a$08$`, 22 characters of salt and 31 of hash), and
 * the other bcrypt prefixes. Older phpass `$P$` hashes and a site's own `encryptPassword` are not.
 */
const bcryptHash = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** Waline's columns of social sign-in bindings: Marginalia has no social sign-in, they are not kept. */
const oauthColumns = ['github', 'twitter', 'facebook', 'google', 'weibo', 'qq', 'oidc', 'huawei'];

/** The account a `Users` row describes, or why it cannot be read. */
export function readWalineUser(
  ref: string,
  row: Record<string, unknown>,
  readDate: (value: unknown) => number | undefined,
): SourceAccount | { readonly ref: string; readonly reason: string } {
  const sourceId = idOf(row.objectId);
  if (!sourceId) return { ref, reason: 'no objectId' };
  const rawType = text(row.type).trim();
  const rawState = text(row.state);
  // Only a Marginalia export writes `state` (Waline has no such column): its objectId is Marginalia's id.
  const own = accountStates.has(rawState) && typeof row.objectId === 'string';
  const pending = /^verify:/.test(rawType);
  const known = accountTypes.has(rawType);
  const password = text(row.password).trim();
  const kept = bcryptHash.test(password);
  return {
    ref,
    sourceId,
    email: text(row.email).trim(),
    displayName: text(row.display_name),
    link: text(row.url),
    avatar: text(row.avatar),
    label: text(row.label),
    type: known ? (rawType as AccountType) : 'guest',
    state: own ? (rawState as AccountState) : pending ? 'unconfirmed' : 'active',
    ...(known || pending ? {} : { unknownType: rawType }),
    passwordHash: kept ? password : '',
    passwordDropped: password !== '' && !kept,
    totpDropped: text(row['2fa']).trim() !== '',
    oauthDropped: oauthColumns.some((column) => text(row[column]).trim() !== ''),
    createdAt: readDate(row.createdAt),
    ...(own ? { ownId: sourceId, ...identityOf(row) } : {}),
  };
}

/** The external identity a Marginalia export's row carries (within the bounds its keys keep), and its address's flag. */
function identityOf(row: Record<string, unknown>): Pick<SourceAccount, 'identity' | 'emailVerified'> {
  const provider = text(row.identity_provider);
  const subject = text(row.identity_subject);
  const bounded =
    provider !== '' &&
    subject !== '' &&
    provider.length <= externalIdentityLimits.providerChars &&
    subject.length <= externalIdentityLimits.subjectChars;
  return {
    ...(bounded ? { identity: { provider, subject } } : {}),
    ...(typeof row.email_verified === 'boolean' ? { emailVerified: row.email_verified } : {}),
  };
}
