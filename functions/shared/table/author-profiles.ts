import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type AccountType, type AuthorProfile, authorProfileAttributes } from '../domain/account.js';
import type { ReadAuthorProfiles } from '../domain/profile-overlay.js';
import { batchGet, keyId } from './batch-get.js';
import { keys } from './keys.js';

const accountTypes: readonly AccountType[] = ['administrator', 'guest', 'banned'];

/** An account item's profile attributes back in the domain shape; undefined for an item that is not one. */
export function fromProfileItem(item: Record<string, unknown>): AuthorProfile | undefined {
  const optional = (name: string) =>
    typeof item[name] === 'string' && item[name] !== '' ? (item[name] as string) : undefined;
  const id = optional('id');
  const type = accountTypes.find((known) => known === item.type);
  if (id === undefined || type === undefined) return undefined;
  const link = optional('link');
  const avatar = optional('avatar');
  const label = optional('label');
  return {
    id,
    displayName: optional('displayName') ?? '',
    email: optional('email') ?? '',
    type,
    ...(link === undefined ? {} : { link }),
    ...(avatar === undefined ? {} : { avatar }),
    ...(label === undefined ? {} : { label }),
  };
}

/**
 * Reads authors' profiles from their account items (`USER#<id>` / `USER`): one BatchGetItem per 100 distinct
 * ids (unprocessed keys asked again: batch-get.ts), projected to the profile's attributes, so neither the
 * password hash nor the TOTP secret is ever read for it. No ids, no request.
 */
export function createAuthorProfileReader(
  client: DynamoDBDocumentClient,
  tableName: string,
): ReadAuthorProfiles {
  return async (ids) => {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) return new Map();
    const found = await batchGet(client, tableName, distinct.map(keys.account), authorProfileAttributes);
    const profiles = new Map<string, AuthorProfile>();
    for (const id of distinct) {
      const item = found.get(keyId(keys.account(id)));
      const profile = item === undefined ? undefined : fromProfileItem(item);
      if (profile !== undefined && profile.id === id) profiles.set(id, profile);
    }
    return profiles;
  };
}
