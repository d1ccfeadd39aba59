import type { Viewer } from '../../functions/shared/auth/viewer.js';
import type { Account } from '../../functions/shared/domain/account.js';

/** An account for fakes: active, version 0, of `type`; `changes` overrides any field. */
export function testAccount(changes: Partial<Account> & Pick<Account, 'id' | 'email'>): Account {
  return {
    displayName: 'Someone',
    type: 'administrator',
    state: 'active',
    passwordHash: 'scrypt$unused',
    sessionVersion: 0,
    createdAt: 0,
    ...changes,
  };
}

/** A viewer for fakes of `ResolveViewer`: an administrator unless `type` says otherwise. */
export function testViewer(id: string, email: string, type: Viewer['type'] = 'administrator'): Viewer {
  const account = testAccount({ id, email, type });
  return { id, email, type, sessionVersion: 0, account };
}
