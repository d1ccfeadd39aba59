import { isAdministrator, type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import { invalidField } from '../shared/domain/invalid-field.js';
import type { Account } from '../shared/domain/account.js';
import {
  accountAdminChangeSchema,
  accountIdSchema,
  accountListQuerySchema,
} from '../shared/domain/account-admin-schemas.js';
import type { AvatarFor } from '../shared/domain/avatar.js';
import { AppError } from '../shared/domain/errors.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import { presentUser, type PublicUser } from '../shared/domain/present-user.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { AccountChanges, AccountRepository } from '../shared/table/account-repository.js';
import type { AccountTotpStore } from '../shared/table/account-totp.js';

/** An account as administrators see it: the user shape, with its state and times; never its hash or secret. */
export interface AdministeredAccount extends PublicUser {
  readonly state: Account['state'];
  readonly createdAt: string;
  readonly updatedAt: string | null;
}

/** The administrators' view of `account`. */
export function presentAdministeredAccount(account: Account, avatarFor: AvatarFor): AdministeredAccount {
  return {
    ...presentUser(account, avatarFor),
    state: account.state,
    createdAt: new Date(account.createdAt).toISOString(),
    updatedAt: account.updatedAt === undefined ? null : new Date(account.updatedAt).toISOString(),
  };
}

/** What the administrators' account routes use. */
export interface AccountAdminDependencies {
  readonly viewer: ResolveViewer;
  readonly accounts: Pick<AccountRepository, 'findById' | 'update' | 'remove' | 'listPage'>;
  /** `totp: false` resets the second factor (table/account-totp.ts). */
  readonly accountTotp: Pick<AccountTotpStore, 'reset'>;
  readonly avatarFor: AvatarFor;
  readonly now: () => number;
}

/**
 * `GET /api/user` (Waline's §1.10): an administrator who gives `page` gets a page of accounts, newest first,
 * `{page, totalPages, pageSize, data}`; anybody else, or a request without `page`, gets the public user wall
 * (`wall`: user-wall.ts), as on Waline.
 */
export function createListAccounts({
  viewer,
  accounts,
  avatarFor,
  wall,
}: AccountAdminDependencies & { readonly wall: Router }): Router {
  return async (request) => {
    if (!request.query('page')) return wall(request);
    // A token of no administrator is a visitor's: the wall, not a refusal.
    if (!isAdministrator(await viewer(request.authorization))) return wall(request);
    const query = parseInput(
      accountListQuerySchema,
      { page: request.query('page') || undefined, pageSize: request.query('pageSize') || undefined },
      request.lang,
    );
    const { accounts: page, total } = await accounts.listPage(query.page, query.pageSize);
    return envelope({
      page: query.page,
      totalPages: Math.ceil(total / query.pageSize),
      pageSize: query.pageSize,
      data: page.map((account) => presentAdministeredAccount(account, avatarFor)),
    });
  };
}

/** The account the path names, or a 404 (a 400 for an id that cannot be one). */
async function pathAccount(
  accounts: Pick<AccountRepository, 'findById'>,
  id: string | undefined,
  lang: Lang,
): Promise<Account> {
  const parsed = parseInput(accountIdSchema, id ?? '', lang);
  const account = await accounts.findById(parsed);
  if (!account) throw new AppError('not_found', translate(lang, 'accountNotFound', { id: parsed }));
  return account;
}

/**
 * `PUT /api/user/{id}` by an administrator (Waline's §1.11): sets another account's `type` (a ban revokes
 * its tokens), its `label` (`null` or `''` removes it), or admits an account awaiting approval
 * (`state: 'active'`), or turns its two-factor sign-in off (`totp: false`: its owner lost the authenticator and
 * the recovery codes, or the token key was rotated, which no sealed secret survives). An administrator does not
 * change their own type (no one locks the site out of its last administrator by mistake). Answers the account as
 * the list shows it.
 */
export function createUpdateAccount({
  viewer,
  accounts,
  accountTotp,
  avatarFor,
  now,
}: AccountAdminDependencies): Router {
  return async (request) => {
    const admin = await requireAdmin(viewer, request.authorization, request.lang);
    const body = parseInput(accountAdminChangeSchema, request.jsonBody(), request.lang);
    const account = await pathAccount(accounts, request.id, request.lang);
    if (body.type !== undefined && body.type !== account.type && account.id === admin.id) {
      throw invalidField(request.lang, 'type', 'cannot be changed on your own account');
    }
    if (body.totp === false && account.id === admin.id) {
      // Turning one's own off takes the password and a code (DELETE /api/token/2fa), never a token alone.
      throw invalidField(request.lang, 'totp', 'use DELETE /api/token/2fa for your own account');
    }
    if (body.state !== undefined && account.state !== 'active' && account.state !== 'awaiting-approval') {
      // An unconfirmed address is confirmed by its owner's mail, never by an administrator.
      throw invalidField(request.lang, 'state', 'only an account awaiting approval can be made active');
    }
    const banning = body.type === 'banned' && account.type !== 'banned';
    const changes: AccountChanges = {
      ...(body.type !== undefined && body.type !== account.type ? { type: body.type } : {}),
      ...(body.label !== undefined ? { label: body.label ?? '' } : {}),
      ...(body.state !== undefined && account.state !== 'active' ? { state: body.state } : {}),
      ...(banning ? { revokeTokens: true as const } : {}),
    };
    const update = await accounts.update(account.id, changes, account.sessionVersion);
    if (update.status !== 'updated') {
      throw new AppError('duplicate', translate(request.lang, 'accountChanged', { id: account.id }));
    }
    if (body.totp === false && update.account.totp) {
      await accountTotp.reset(account.id, now());
      const { totp: _, ...withoutTotp } = update.account;
      return envelope(presentAdministeredAccount(withoutTotp, avatarFor));
    }
    return envelope(presentAdministeredAccount(update.account, avatarFor));
  };
}

/**
 * `DELETE /api/user/{id}` by an administrator (Waline's §1.11): an unconfirmed account is deleted, any other
 * banned, its tokens revoked. The ban sticks: its address stays claimed, so registering it again makes no
 * new account. Not one's own account (a 400).
 */
export function createDeleteAccount({ viewer, accounts }: AccountAdminDependencies): Router {
  return async (request) => {
    const admin = await requireAdmin(viewer, request.authorization, request.lang);
    const account = await pathAccount(accounts, request.id, request.lang);
    if (account.id === admin.id) throw invalidField(request.lang, 'id', 'cannot be your own account');
    // A banned account stays, unconfirmed or not: deleting it would free its address, lifting the ban.
    if (account.state === 'unconfirmed' && account.type !== 'banned') {
      await accounts.remove(account.id);
      return envelope('');
    }
    if (account.type !== 'banned') {
      const update = await accounts.update(
        account.id,
        { type: 'banned', revokeTokens: true },
        account.sessionVersion,
      );
      if (update.status !== 'updated') {
        throw new AppError('duplicate', translate(request.lang, 'accountChanged', { id: account.id }));
      }
    }
    return envelope('');
  };
}
