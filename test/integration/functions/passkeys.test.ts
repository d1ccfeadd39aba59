import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { tokenFor } from '../../../functions/shared/auth/token.js';
import type { Account } from '../../../functions/shared/domain/account.js';
import { passkeyLimits } from '../../../functions/shared/domain/passkey.js';
import type { AccountMailSubject } from '../../../functions/shared/table/account-mail-event.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { scanTable } from '../../../scripts/shared/storage/table-export.js';
import { passkeySignInsPerWindow } from '../../../functions/comment/passkeys.js';
import { createLocalApi } from '../../support/local-services.js';
import {
  createSoftwareAuthenticator,
  type SoftwareCredential,
} from '../../support/software-authenticator.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const password = 'a long enough password';
const jwt = 'j'.repeat(40);
const host = 'localhost:8443';
const origin = `http://${host}`;

/** A schema of docs/openapi.yaml's components, compiled with the rest of them. */
function documentedSchema(name: string) {
  const document = parse(readFileSync(new URL('../../../docs/openapi.yaml', import.meta.url), 'utf8')) as {
    components: unknown;
  };
  return new Ajv2020({ strict: false, allErrors: true }).compile({
    $ref: `#/components/schemas/${name}`,
    components: document.components,
  });
}

interface Answer {
  errno: number;
  errmsg?: string;
  details?: Record<string, string>;
  data: Record<string, unknown> & { token?: string };
}

/** Passkeys through the comment function on DynamoDB Local, with a software authenticator. */
describe('passkeys on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let time = 1_800_000_000_000;
  let ip = 0;
  const nextIp = () => `198.18.${Math.floor(++ip / 250)}.${ip % 250}`;
  const authenticator = createSoftwareAuthenticator(origin);
  /** The account mails in the outbox, each as its event says. */
  const mails = async () => {
    const client = createDocumentClient({ endpoint: table.endpoint });
    const found: AccountMailSubject[] = [];
    for await (const item of scanTable(client, table.tableName)) {
      if (item.entity === 'outbox' && item.cause === 'account.mail')
        found.push(item.account as AccountMailSubject);
    }
    return found;
  };

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: jwt }, { now: () => time });
  });
  afterAll(() => table.drop());

  const call = async (
    method: string,
    path: string,
    { body, token, sourceIp = nextIp() }: { body?: unknown; token?: string; sourceIp?: string } = {},
  ) => {
    const answer = await api.call({
      method,
      path,
      ...(body === undefined ? {} : { body }),
      headers: { host, origin, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      sourceIp,
    });
    return { status: answer.status, body: answer.body as Answer };
  };
  let accounts = 0;
  /** An active account (with a password, or made from an identity without one) and a token of now. */
  const account = async (extra: Partial<Account> = {}) => {
    const id = `01PASSKEY${String(++accounts).padStart(17, '0')}`;
    const stored: Account = {
      id,
      email: `reader${accounts}@example.com`,
      displayName: `Reader ${accounts}`,
      type: 'guest',
      state: 'active',
      passwordHash: await hashPassword(password),
      sessionVersion: 0,
      createdAt: 0,
      ...extra,
    };
    await api.services.accounts.create(stored);
    return { account: stored, token: await tokenFor(jwt, stored, time, 24 * 7) };
  };
  /** Adds a passkey to the account of `token` from the profile: options after the password, then the answer. */
  const addPasskey = async (token: string, name = 'Laptop') => {
    const options = await call('POST', '/api/passkey/options', { body: { password }, token });
    expect(options.status).toBe(200);
    const made = authenticator.create(options.body.data as never);
    const added = await call('POST', '/api/passkey', { body: { name, credential: made.response }, token });
    return { added, credential: made.credential };
  };
  const signInOptions = async (sourceIp?: string) =>
    (await call('POST', '/api/token/passkey/options', { body: {}, ...(sourceIp ? { sourceIp } : {}) })).body
      .data as {
      challenge: string;
      rpId: string;
    };
  const signIn = async (credential: SoftwareCredential, counter?: number) => {
    const assertion = authenticator.get(credential, await signInOptions(), counter);
    return {
      assertion,
      answer: await call('POST', '/api/token/passkey', { body: { credential: assertion } }),
    };
  };

  it('adds a passkey after the password, lists it, and signs in with it alone as the password would', async () => {
    const { account: reader, token } = await account();

    const { added, credential } = await addPasskey(token, 'Phone');
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ id: credential.id, name: 'Phone', createdAt: time });
    const listed = await call('GET', '/api/passkey', { token });
    expect(documentedSchema('PasskeyList')(listed.body.data)).toBe(true);
    expect(documentedSchema('Passkey')(added.body.data)).toBe(true);
    expect(listed.body.data).toEqual({
      passkeys: [{ id: credential.id, name: 'Phone', createdAt: time, backedUp: false }],
      max: passkeyLimits.perAccount,
      needsPassword: true,
    });

    time += 60_000;
    const { answer } = await signIn(credential);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ objectId: reader.id, email: reader.email, type: 'guest' });
    const me = await call('GET', '/api/token', { token: answer.body.data.token! });
    expect(me.body.data).toMatchObject({ objectId: reader.id });
    const after = await api.services.passkeys.find(reader.id, credential.id);
    expect(after).toMatchObject({ counter: 1, lastUsedAt: time });
    // The options ask for a discoverable credential with user verification, for this host's RP ID.
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
  });

  it('asks for the password before a registration, and a token alone gets no challenge', async () => {
    const { token } = await account();

    const without = await call('POST', '/api/passkey/options', { body: {}, token });
    const wrong = await call('POST', '/api/passkey/options', { body: { password: 'not it at all' }, token });
    const anonymous = await call('POST', '/api/passkey/options', { body: { password } });

    expect([without.status, wrong.status, anonymous.status]).toEqual([400, 403, 401]);
    expect((await call('GET', '/api/passkey', { token })).body.data.passkeys).toEqual([]);
  });

  it('lets an account without a password add a passkey only within minutes of signing in', async () => {
    const identity = { provider: 'github', subject: `${accounts + 1}` };
    const { account: made } = await account({ passwordHash: '', identity });
    const stale = await tokenFor(jwt, made, time - passkeyLimits.freshSignInMs - 60_000, 24 * 7);
    const fresh = await tokenFor(jwt, made, time - 60_000, 24 * 7);

    const refused = await call('POST', '/api/passkey/options', { body: {}, token: stale });
    const listed = await call('GET', '/api/passkey', { token: fresh });
    const options = await call('POST', '/api/passkey/options', { body: {}, token: fresh });

    expect(refused.status).toBe(403);
    expect(listed.body.data.needsPassword).toBe(false);
    expect(options.status).toBe(200);
  });

  it('takes each challenge once: a replayed assertion, a spent or foreign challenge and an expired one are refused', async () => {
    const { token } = await account();
    const { credential } = await addPasskey(token);
    const { assertion, answer } = await signIn(credential);
    expect(answer.status).toBe(200);

    const replayed = await call('POST', '/api/token/passkey', { body: { credential: assertion } });
    // A registration challenge of the account, answered as a sign-in.
    const registration = (await call('POST', '/api/passkey/options', { body: { password }, token })).body
      .data as {
      challenge: string;
    };
    const foreign = authenticator.get(credential, { challenge: registration.challenge });
    const withForeign = await call('POST', '/api/token/passkey', { body: { credential: foreign } });
    const never = authenticator.get(credential, { challenge: Buffer.from('made up').toString('base64url') });
    const withNever = await call('POST', '/api/token/passkey', { body: { credential: never } });
    const late = authenticator.get(credential, await signInOptions());
    time += passkeyLimits.challengeMs + 1000;
    const withLate = await call('POST', '/api/token/passkey', { body: { credential: late } });

    expect([replayed.status, withForeign.status, withNever.status, withLate.status]).toEqual([
      401, 401, 401, 401,
    ]);
    expect((await signIn(credential)).answer.status).toBe(200);
  });

  it('refuses a registration answered to another account’s challenge, or from another origin', async () => {
    const { token } = await account();
    const { token: other } = await account();
    const options = (await call('POST', '/api/passkey/options', { body: { password }, token: other })).body
      .data;

    const made = authenticator.create(options as never);
    const stolen = await call('POST', '/api/passkey', {
      body: { name: 'x', credential: made.response },
      token,
    });
    const fresh = (await call('POST', '/api/passkey/options', { body: { password }, token })).body.data;
    const elsewhere = createSoftwareAuthenticator('https://evil.example').create(fresh as never, 'localhost');
    const phished = await call('POST', '/api/passkey', {
      body: { name: 'x', credential: elsewhere.response },
      token,
    });

    expect([stolen.status, phished.status]).toEqual([400, 400]);
    expect((await call('GET', '/api/passkey', { token })).body.data.passkeys).toEqual([]);
  });

  it('refuses a sign counter that does not grow (a cloned authenticator)', async () => {
    const { account: reader, token } = await account();
    const { credential } = await addPasskey(token);
    expect((await signIn(credential, 5)).answer.status).toBe(200);

    const { answer } = await signIn(credential, 3);

    expect(answer.status).toBe(401);
    expect((await api.services.passkeys.find(reader.id, credential.id))?.counter).toBe(5);
  });

  it('keeps several passkeys up to the bound, removes one after the password, and the removed one signs in no more', async () => {
    const { account: reader, token } = await account();
    const first = await addPasskey(token, 'First');
    const second = await addPasskey(token, 'Second');
    for (let i = 2; i < passkeyLimits.perAccount; i++) {
      const outcome = await api.services.passkeys.add({
        accountId: reader.id,
        credentialId: `filler${i}`,
        publicKey: 'AA',
        counter: 0,
        transports: [],
        name: `Filler ${i}`,
        deviceType: 'singleDevice',
        backedUp: false,
        createdAt: time + i,
      });
      expect(outcome).toBe('added');
    }
    time += 16 * 60_000;

    const full = await call('POST', '/api/passkey/options', { body: { password }, token });
    const withoutPassword = await call('DELETE', `/api/passkey/${first.credential.id}`, { body: {}, token });
    const removed = await call('DELETE', `/api/passkey/${first.credential.id}`, {
      body: { password },
      token,
    });
    const again = await call('DELETE', `/api/passkey/${first.credential.id}`, { body: { password }, token });
    const malformed = await call('DELETE', '/api/passkey/not%2Ban%2Bid', { body: { password }, token });

    expect(full.status).toBe(409);
    expect(withoutPassword.status).toBe(400);
    expect(removed.status).toBe(200);
    expect(again.status).toBe(404);
    expect([malformed.status, Object.keys(malformed.body.details ?? {})]).toEqual([400, ['id']]);
    const names = (
      (await call('GET', '/api/passkey', { token })).body.data.passkeys as { name: string }[]
    ).map((passkey) => passkey.name);
    expect(names).toHaveLength(passkeyLimits.perAccount - 1);
    expect(names[0]).toBe('Second');
    expect((await signIn(first.credential)).answer.status).toBe(401);
    expect((await signIn(second.credential)).answer.status).toBe(200);
    // Room again for one.
    expect((await addPasskey(token, 'Third')).added.status).toBe(200);
    // The account's address is told of each passkey added or removed, and of nothing refused.
    const told = (await mails()).filter((mail) => mail.accountId === reader.id);
    expect(told.map((mail) => `${mail.mail} ${mail.change}`).sort()).toEqual([
      'changed passkey-added',
      'changed passkey-added',
      'changed passkey-added',
      'changed passkey-removed',
    ]);
  });

  it('refuses a banned account, and a removed account’s passkeys go with it', async () => {
    const { account: banned, token } = await account();
    const { credential: bannedKey } = await addPasskey(token);
    await api.services.accounts.update(banned.id, { type: 'banned', revokeTokens: true });
    const { account: gone, token: goneToken } = await account();
    const { credential: goneKey } = await addPasskey(goneToken);
    await api.services.accounts.remove(gone.id);

    expect((await signIn(bannedKey)).answer.status).toBe(403);
    expect((await signIn(goneKey)).answer.status).toBe(401);
    expect(await api.services.passkeys.list(gone.id)).toEqual([]);
  });

  it('limits passkey sign-in requests per network, before any other work', async () => {
    const sourceIp = '203.0.113.77';
    for (let i = 0; i < passkeySignInsPerWindow; i++) await signInOptions(sourceIp);

    const refused = await call('POST', '/api/token/passkey/options', { body: {}, sourceIp });
    const answer = await call('POST', '/api/token/passkey', { body: {}, sourceIp });

    expect([refused.status, answer.status]).toEqual([429, 429]);
  });

  it('refuses passkeys where the server is reached by an IP address', async () => {
    const answer = await api.call({
      method: 'POST',
      path: '/api/token/passkey/options',
      body: {},
      headers: { host: '127.0.0.1:8443' },
      sourceIp: nextIp(),
    });

    expect(answer.status).toBe(403);
  });
});
