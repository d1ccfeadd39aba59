/**
 * An account item as a row of Waline's `Users` table, without any secret: no password hash, no TOTP
 * secret, no recovery codes, no session version. Waline's columns where they exist (`display_name`,
 * `url`), and Marginalia's `state` beside `type`, which only Marginalia writes: an import of the file
 * knows its own accounts by it and keeps their ids. An account made from an external identity also carries that
 * identity (`identity_provider`, `identity_subject`) and what its provider said of its address (`email_verified`),
 * so that an import links it to the identity again and never lets it claim the address.
 */
import { accountAttributes as names } from '../../functions/shared/domain/account.js';

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const timeOf = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? new Date(value).toISOString() : null;

/** The `Users` row of one account item; only the attributes named here leave the table. */
export function toUsersRow(item: Record<string, unknown>): Record<string, unknown> {
  const createdAt = timeOf(item[names.createdAt]);
  return {
    objectId: item[names.id],
    display_name: textOf(item[names.displayName]) ?? '',
    email: textOf(item[names.email]) ?? '',
    url: textOf(item[names.link]),
    avatar: textOf(item[names.avatar]),
    label: textOf(item[names.label]),
    type: item[names.type],
    state: item[names.state],
    createdAt,
    updatedAt: timeOf(item[names.updatedAt]) ?? createdAt,
    ...(textOf(item[names.identityProvider]) && textOf(item[names.identitySubject])
      ? { identity_provider: item[names.identityProvider], identity_subject: item[names.identitySubject] }
      : {}),
    ...(typeof item[names.emailVerified] === 'boolean' ? { email_verified: item[names.emailVerified] } : {}),
  };
}
