import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalHttpServer } from '../support/local-http-server.js';
import { type MailedSite, startMailedSite } from '../support/mailed-site.js';
import type { SmtpSink } from '../support/smtp-sink.js';
import type { TestTable } from '../support/test-table.js';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { createDocumentClient } from '../../functions/shared/dynamodb-client/client.js';
import { createAccountRepository } from '../../functions/shared/table/account-repository.js';

/**
 * An account's life over the local HTTP API, as `npm start` runs it: registration writes the account and an
 * outbox event, the real notifier (woken by the table's stream) mails a real SMTP server on loopback, and the
 * links in those mails confirm the account and reset its password.
 */

const serverUrl = 'https://comments.example.test';
const waitLong = { timeout: 20_000, interval: 25 };
const ann = {
  display_name: 'Ann',
  email: 'ann@blog.example.test',
  password: 'correct horse battery',
  url: '',
};

describe('an account from registration to a reset, end to end', () => {
  let site: MailedSite;
  let sink: SmtpSink;
  let table: TestTable;
  let server: LocalHttpServer;

  beforeAll(async () => {
    site = await startMailedSite({
      serverUrl,
      keys: {
        jwt: 'accounts-e2e-secret-0123456789abcdef-0123',
        link: 'accounts-e2e-links-0123456789abcdef-01234',
      },
    });
    ({ sink, table, server } = site);
  });
  afterAll(() => site?.stop());

  const send = (...request: Parameters<MailedSite['send']>) => site.send(...request);

  /** The token of the link to `route` in the `index`th mail to `address` whose subject contains `subject`. */
  const linkToken = async (address: string, subject: string, route: string, index = 0) => {
    await vi.waitFor(() => {
      expect(
        sink.mailsTo(address).filter((mail) => mail.parsed.subject?.includes(subject)).length,
      ).toBeGreaterThan(index);
    }, waitLong);
    const mail = sink.mailsTo(address).filter((item) => item.parsed.subject?.includes(subject))[index];
    const match = new RegExp(`${serverUrl}${route}\\?token=([\\w.-]+)`).exec(mail?.parsed.text ?? '');
    expect(match, `a ${route} link in the mail`).not.toBeNull();
    return match?.[1] ?? '';
  };
  const signIn = (password: string, email = ann.email) => send('POST', '/api/token', { email, password });
  /** The confirmation form's POST, as a browser sends it: the password chosen at registration, urlencoded. */
  const confirm = (token: string, password = ann.password) =>
    fetch(`${server.base}/api/verification?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password }).toString(),
    });
  /** Registers `email` with `ann`'s password and confirms it through its mailed link (each test its own account). */
  const registerAndConfirm = async (email: string) => {
    expect((await send('POST', '/api/user', { ...ann, email })).json.errno).toBe(0);
    const token = await linkToken(email, 'Registration Confirm Mail', '/api/verification');
    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
  };

  it('registers, mails a confirmation link whose page confirms on its button, and then signs in', async () => {
    const registered = await send('POST', '/api/user', ann);
    expect(registered.json).toEqual({ errno: 0, errmsg: '', data: { verify: true } });

    const token = await linkToken(ann.email, 'Registration Confirm Mail', '/api/verification');
    const page = await send('GET', `/api/verification?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post"');
    expect((await signIn(ann.password)).json.errno).not.toBe(0);

    // Someone who registered the address cannot be confirmed by the mailbox's owner without their password.
    const guessed = await confirm(token, 'not the registration password');
    expect(guessed.status).toBe(403);
    expect((await signIn(ann.password)).json.errno).not.toBe(0);

    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Your account is confirmed');
    const again = await confirm(token);
    expect(again.status).toBe(409);

    const signedIn = await signIn(ann.password);
    expect(signedIn.json.errno).toBe(0);
    expect(signedIn.json.data).toMatchObject({ display_name: 'Ann', type: 'guest' });
  });

  it('answers a known address as an unknown one, and tells only the known one by mail', async () => {
    const carol = 'carol@blog.example.test';
    await registerAndConfirm(carol);

    const known = await send('POST', '/api/user', {
      ...ann,
      email: carol,
      password: 'another password here',
    });
    const unknown = await send('POST', '/api/user', { ...ann, email: 'bob@blog.example.test' });

    expect(known.status).toBe(unknown.status);
    expect(known.text).toBe(unknown.text);
    await linkToken('bob@blog.example.test', 'Registration Confirm Mail', '/api/verification');
    await vi.waitFor(() => {
      expect(sink.mailsTo(carol).map((mail) => mail.parsed.subject)).toContain(
        '[Test Blog] Someone tried to register with your address',
      );
    }, waitLong);
  });

  it('resets the password from the mailed link once, and the old token and password stop working', async () => {
    const erin = 'erin@blog.example.test';
    await registerAndConfirm(erin);
    const signedIn = await signIn(ann.password, erin);
    expect(signedIn.json, signedIn.text).toMatchObject({ errno: 0 });
    const before = signedIn.json.data.token as string;
    expect((await send('GET', '/api/token', undefined, `Bearer ${before}`)).json.data.email).toBe(erin);

    const known = await send('PUT', '/api/user/password', { email: erin });
    const unknown = await send('PUT', '/api/user/password', { email: 'nobody@blog.example.test' });
    expect(known.text).toBe(unknown.text);
    expect(known.json).toEqual({ errno: 0, errmsg: '', data: '' });

    const token = await linkToken(erin, 'Reset Password', '/ui/reset');
    const reset = await send('POST', '/api/user/password', { token, password: 'a brand new password' });
    expect(reset.json).toEqual({ errno: 0, errmsg: '', data: '' });
    const reused = await send('POST', '/api/user/password', { token, password: 'an attacker password' });
    expect(reused.status).toBe(400);

    expect((await send('GET', '/api/token', undefined, `Bearer ${before}`)).json.data).toEqual({});
    expect((await signIn(ann.password, erin)).json.errno).not.toBe(0);
    expect((await signIn('a brand new password', erin)).json.errno).toBe(0);
    expect(sink.mailsTo('nobody@blog.example.test')).toEqual([]);
  });

  it('changes the address only once the new mailbox follows its link, and tells the former address', async () => {
    const frank = 'frank@blog.example.test';
    const moved = 'frank@elsewhere.example.test';
    // Stored as a confirmed account: registrations from this one IP are limited, and other tests register.
    await createAccountRepository(createDocumentClient({ endpoint: table.endpoint }), table.tableName).create(
      {
        id: '01FRANK0000000000000000000',
        email: frank,
        displayName: 'Frank',
        type: 'guest',
        state: 'active',
        passwordHash: await hashPassword(ann.password),
        sessionVersion: 0,
        createdAt: Date.now(),
      },
    );
    const token = (await signIn(ann.password, frank)).json.data.token as string;

    const asked = await send(
      'PUT',
      '/api/user',
      { email: moved, currentPassword: ann.password },
      `Bearer ${token}`,
    );
    expect(asked.json.data).toMatchObject({ email: frank, pending_email: moved });
    // Nothing moved yet: the old address still signs in, the new one does not.
    expect((await signIn(ann.password, moved)).json.errno).not.toBe(0);

    const link = await linkToken(moved, 'Confirm your new address', '/api/verification');
    const page = await send('GET', `/api/verification?token=${link}`);
    expect(page.text).toContain('Use this address');
    const done = await fetch(`${server.base}/api/verification?token=${link}`, { method: 'POST' });
    expect(done.status).toBe(200);

    expect((await signIn(ann.password, moved)).json.errno).toBe(0);
    expect((await signIn(ann.password, frank)).json.errno).not.toBe(0);
    await vi.waitFor(() => {
      expect(sink.mailsTo(frank).map((mail) => mail.parsed.subject)).toContainEqual(
        expect.stringContaining('Your address was changed'),
      );
    }, waitLong);
  });
});
