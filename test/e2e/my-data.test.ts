import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalHttpServer } from '../support/local-http-server.js';
import { type MailedSite, startMailedSite } from '../support/mailed-site.js';
import type { SmtpSink } from '../support/smtp-sink.js';
import type { TestTable } from '../support/test-table.js';
import { createDocumentClient } from '../../functions/shared/dynamodb-client/client.js';
import { toWalineExport } from '../../scripts/export/to-waline.js';
import { scanTable } from '../../scripts/shared/storage/table-export.js';
import { saveTestAccount } from '../support/administrator.js';

/**
 * A commenter's own data over the local HTTP API, as `npm start` runs it (issue 28, point 5): comments posted
 * anonymously (one answered, one liked, one under a `+tag` spelling of the address), the link asked for at
 * `/ui/my-data` and read from the mail the real notifier sends to a real SMTP server, the download, the erase,
 * and then every read route, the administrators' lists, the export and the whole table, none of which holds
 * anything of that address any more; the counts stay exact. Then the same for a signed-in account, and for an
 * address that a member of the site's own login (single sign-on, whose account never claims an address) posted with.
 */

const serverUrl = 'https://comments.example.test';
const waitLong = { timeout: 20_000, interval: 25 };
const zelda = {
  nick: 'Zelda Quuxington',
  mail: 'zelda.quux@reader.example.test',
  link: 'https://zelda-quux.example.test',
};
const secretTexts = ['zq first words', 'zq second words', 'zq reply words', 'zq tagged words'];
const sso = { SSO_SECRET: 'my-data-e2e-sso-0123456789abcdef-0123456', SSO_AUDIENCE: serverUrl };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are whatever JSON they are
type Json = any;

describe("a commenter's own data, end to end", () => {
  let site: MailedSite;
  let sink: SmtpSink;
  let table: TestTable;
  let server: LocalHttpServer;
  let adminToken = '';

  beforeAll(async () => {
    site = await startMailedSite({
      serverUrl,
      keys: {
        jwt: 'mydata-e2e-secret-0123456789abcdef-012345',
        link: 'mydata-e2e-links-0123456789abcdef-0123456',
      },
      settings: sso,
    });
    ({ sink, table, server } = site);
    const admin = await saveTestAccount(server.services, {
      type: 'administrator',
      email: 'owner@blog.example.test',
    });
    const signedIn = await send('POST', '/api/token', { email: admin.email, password: admin.password });
    adminToken = String(signedIn.json.data.token);
  });
  afterAll(() => site?.stop());

  const send = (...request: Parameters<MailedSite['send']>) => site.send(...request);

  const post = async (body: Record<string, unknown>, authorization?: string) => {
    const answer = await send('POST', '/api/comment', body, authorization);
    expect(answer.json.errno, answer.text).toBe(0);
    return answer.json.data as Json;
  };
  /** One comment on the empty page `url` posted signed in with `token`, then one with `address` without it. */
  const postBoth = async (
    url: string,
    address: string,
    token: string,
    [mine, anonymous]: readonly string[],
  ) => {
    const signedIn = await post(
      { url, comment: mine, nick: 'Signed in', mail: address, link: '' },
      `Bearer ${token}`,
    );
    const before = await post({
      url,
      comment: anonymous,
      nick: 'Without an account',
      mail: address,
      link: '',
    });
    expect(await counts(url)).toEqual([2]);
    return { signedIn, before };
  };
  /** The token of the newest data link mailed to `address`. */
  const dataLink = async (address: string, count = 1) => {
    const mails = () => sink.mailsTo(address).filter((mail) => mail.parsed.subject?.includes('Your data'));
    await vi.waitFor(() => expect(mails().length).toBeGreaterThanOrEqual(count), waitLong);
    const match = new RegExp(`${serverUrl}/ui/my-data\\?token=([\\w.-]+)`).exec(
      mails().at(-1)?.parsed.text ?? '',
    );
    expect(match, 'a /ui/my-data link in the mail').not.toBeNull();
    return match?.[1] ?? '';
  };
  const counts = async (...urls: string[]) =>
    (await send('GET', `/api/comment?type=count&url=${urls.map(encodeURIComponent).join(',')}`)).json
      .data as number[];
  /** Every answer a reader or an administrator can get, and the export and the whole table, as one text. */
  const everythingReadable = async (urls: readonly string[]) => {
    const admin = `Bearer ${adminToken}`;
    const reads = await Promise.all([
      ...urls.map((url) => send('GET', `/api/comment?path=${encodeURIComponent(url)}&page=1&pageSize=50`)),
      ...urls.map((url) =>
        send('GET', `/api/comment?path=${encodeURIComponent(url)}&page=1&pageSize=50`, undefined, admin),
      ),
      send('GET', '/api/comment?type=recent&count=50'),
      send('GET', '/api/comment?type=recent&count=50', undefined, admin),
      send('GET', '/api/comment/rss'),
      ...urls.map((url) => send('GET', `/api/comment/rss?path=${encodeURIComponent(url)}`)),
      send('GET', '/api/user?pageSize=50'),
      send('GET', '/api/user?page=1&pageSize=50', undefined, admin),
      ...['approved', 'waiting', 'spam'].map((status) =>
        send('GET', `/api/comment?type=list&status=${status}&page=1&pageSize=50`, undefined, admin),
      ),
      send('GET', '/api/my-data/log', undefined, admin),
    ]);
    for (const read of reads) expect(read.status, read.text).toBe(200);
    const client = createDocumentClient({ endpoint: table.endpoint });
    const items: Record<string, unknown>[] = [];
    for await (const item of scanTable(client, table.tableName)) items.push(item);
    const exported = toWalineExport(items, Date.now());
    return [...reads.map((read) => read.text), JSON.stringify(exported), JSON.stringify(items)].join('\n');
  };

  it('mails the same link to any address, downloads what was posted, erases it once, and leaves nothing of it', async () => {
    // What the address posts: a root others answer, a root nobody answers (liked), a reply, and one under `+tag`.
    const answered = await post({ url: '/p1', comment: secretTexts[0], ...zelda });
    const alone = await post({ url: '/p2', comment: secretTexts[1], ...zelda });
    const other = await post({
      url: '/p1',
      comment: 'Bob says hello',
      nick: 'Bob',
      mail: 'bob@example.test',
      link: '',
    });
    const reply = await post({
      url: '/p1',
      comment: secretTexts[2],
      pid: other.objectId,
      rid: other.objectId,
      ...zelda,
    });
    const tagged = await post({
      url: '/p2',
      comment: secretTexts[3],
      ...zelda,
      mail: 'Zelda.Quux+blog@Reader.example.test',
    });
    await post({
      url: '/p1',
      comment: 'Bob answers Zelda',
      nick: 'Bob',
      mail: 'bob@example.test',
      link: '',
      pid: answered.objectId,
      rid: answered.objectId,
    });
    expect((await send('PUT', `/api/comment/${alone.objectId}`, { like: true })).json.errno).toBe(0);
    expect(await counts('/p1', '/p2')).toEqual([4, 2]);

    // The request answers the same for an address nobody used, and the page never tells either.
    const unknown = await send('POST', '/api/my-data', { email: 'nobody@reader.example.test' });
    const known = await send('POST', '/api/my-data', { email: zelda.mail });
    expect(known.status).toBe(200);
    expect(known.json).toEqual(unknown.json);
    expect(known.json).toEqual({ errno: 0, errmsg: '', data: '' });
    const token = await dataLink(zelda.mail);
    // The other address is mailed too (its own link, to an empty download): nothing differs but the mailbox.
    const emptyToken = await dataLink('nobody@reader.example.test');
    const empty = await send('GET', '/api/my-data', undefined, `Bearer ${emptyToken}`);
    expect(empty.json.data).toMatchObject({
      account: null,
      comments: [],
      suppressions: [],
      truncated: false,
    });

    // The download: every comment of the normalised address, with its page, time, status and text.
    const download = await send('GET', '/api/my-data', undefined, `Bearer ${token}`);
    expect(download.status, download.text).toBe(200);
    const data = download.json.data as Json;
    expect(data.account).toBeNull();
    expect(data.truncated).toBe(false);
    expect(data.votes).toMatch(/IP address/);
    const byId = new Map((data.comments as Json[]).map((comment) => [comment.id, comment]));
    expect([...byId.keys()].sort()).toEqual(
      [answered.objectId, alone.objectId, reply.objectId, tagged.objectId].sort(),
    );
    expect(byId.get(answered.objectId)).toMatchObject({
      url: '/p1',
      status: 'approved',
      nick: zelda.nick,
      mail: zelda.mail,
      link: zelda.link,
      comment: secretTexts[0],
    });
    expect(byId.get(alone.objectId)).toMatchObject({ url: '/p2', like: 1, comment: secretTexts[1] });
    expect(byId.get(reply.objectId)).toMatchObject({ url: '/p1', pid: other.objectId, rid: other.objectId });
    expect(byId.get(tagged.objectId)).toMatchObject({ mail: 'Zelda.Quux+blog@Reader.example.test' });
    expect(Date.parse(byId.get(answered.objectId).time)).toBeGreaterThan(0);
    // The download may be read again while the link lasts; a made-up token is refused.
    expect((await send('GET', '/api/my-data', undefined, `Bearer ${token}`)).status).toBe(200);
    expect((await send('GET', '/api/my-data', undefined, 'Bearer not-a-link')).status).toBe(401);

    // The erase: once.
    const erased = await send('DELETE', '/api/my-data', undefined, `Bearer ${token}`);
    expect(erased.json, erased.text).toMatchObject({ errno: 0, data: { done: true, removed: 3, kept: 1 } });
    const again = await send('DELETE', '/api/my-data', undefined, `Bearer ${token}`);
    expect(again.status).toBe(400);
    expect(again.json.errmsg).toMatch(/token/);

    // Counts stay exact: /p1 keeps Bob's two and the placeholder; /p2 is empty.
    expect(await counts('/p1', '/p2')).toEqual([3, 0]);
    const page = await send('GET', '/api/comment?path=%2Fp1&page=1&pageSize=50');
    const roots = page.json.data.data as Json[];
    const placeholder = roots.find((root) => root.objectId === answered.objectId);
    expect(placeholder).toMatchObject({ comment: '<p>[deleted]</p>', nick: '' });
    expect(placeholder.children).toHaveLength(1);
    expect(roots.find((root) => root.objectId === other.objectId).children).toHaveLength(0);
    // Nothing anyone can read, nor the export, nor any stored item, holds the address, its name, link or texts.
    const readable = await everythingReadable(['/p1', '/p2']);
    // What others wrote is all still there (the reads and the scan saw the table).
    expect(readable).toContain('Bob says hello');
    expect(readable).toContain('Bob answers Zelda');
    for (const trace of [zelda.nick, zelda.mail, 'zelda.quux', zelda.link, ...secretTexts]) {
      expect(readable.toLowerCase(), trace).not.toContain(trace.toLowerCase());
    }
    // The administrators' log has each request, by a hash prefix only.
    const log = (await send('GET', '/api/my-data/log', undefined, `Bearer ${adminToken}`)).json
      .data as Json[];
    expect(log.map((entry) => entry.kind)).toEqual(expect.arrayContaining(['download', 'erase']));
    expect(log.find((entry) => entry.kind === 'erase')).toMatchObject({
      via: 'link',
      outcome: 'done',
      counts: { removed: 3, kept: 1 },
    });
    expect(log[0].hashPrefix).toMatch(/^[\w-]{8}$/);
    // Only administrators read it.
    expect((await send('GET', '/api/my-data/log')).status).toBe(401);
  });

  it("downloads and erases a signed-in account's comments, those of its address, and the account", async () => {
    const email = 'yorick.quill@reader.example.test';
    const password = 'correct horse battery staple';
    expect(
      (await send('POST', '/api/user', { display_name: 'Yorick Quill', email, password, url: '' })).json
        .errno,
    ).toBe(0);
    await vi.waitFor(
      () => expect(sink.mailsTo(email).some((mail) => mail.parsed.subject?.includes('Confirm'))).toBe(true),
      waitLong,
    );
    const confirmMail = sink.mailsTo(email).find((mail) => mail.parsed.subject?.includes('Confirm'));
    const confirmToken =
      /\/api\/verification\?token=([\w.-]+)/.exec(confirmMail?.parsed.text ?? '')?.[1] ?? '';
    const confirmed = await fetch(`${server.base}/api/verification?token=${confirmToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password }).toString(),
    });
    expect(confirmed.status).toBe(200);
    const token = String((await send('POST', '/api/token', { email, password })).json.data.token);
    const { signedIn, before } = await postBoth('/p3', email, token, [
      'yq signed in',
      'yq before the account',
    ]);

    const download = await send('GET', '/api/my-data', undefined, `Bearer ${token}`);
    expect(download.status, download.text).toBe(200);
    const data = download.json.data as Json;
    expect(data.account).toMatchObject({
      email,
      displayName: 'Yorick Quill',
      type: 'guest',
      state: 'active',
    });
    expect(download.text).not.toMatch(/passwordHash|scrypt|totp"/i);
    expect((data.comments as Json[]).map((comment) => comment.id).sort()).toEqual(
      [signedIn.objectId, before.objectId].sort(),
    );

    const erased = await send('DELETE', '/api/my-data', undefined, `Bearer ${token}`);
    expect(erased.json, erased.text).toMatchObject({ data: { done: true, removed: 2, kept: 0, account: 1 } });
    expect(await counts('/p3')).toEqual([0]);
    expect((await send('POST', '/api/token', { email, password })).json.errno).not.toBe(0);
    const readable = await everythingReadable(['/p3']);
    for (const trace of ['Yorick', 'yorick.quill', 'yq signed in', 'yq before']) {
      expect(readable.toLowerCase(), trace).not.toContain(trace.toLowerCase());
    }
  });

  it("gives the address's link what a member of the site's login posted with it, and takes the address off the member", async () => {
    const email = 'xavier.umber@reader.example.test';
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({
      sub: 'member-xavier',
      name: 'Xavier Umber',
      email,
      email_verified: true,
      jti: 'my-data-e2e-xavier',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(sso.SSO_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(new TextEncoder().encode(sso.SSO_SECRET));
    const signedIn = await send('POST', '/api/token/sso', { assertion });
    expect(signedIn.json.errno, signedIn.text).toBe(0);
    const token = String(signedIn.json.data.token);
    const { signedIn: member, before } = await postBoth('/p4', email, token, [
      'xu as a member',
      'xu before signing in',
    ]);

    // The member's own download lists each comment once (theirs is filed under the account and the address).
    const own = await send('GET', '/api/my-data', undefined, `Bearer ${token}`);
    expect((own.json.data.comments as Json[]).map((comment) => comment.id).sort()).toEqual(
      [member.objectId, before.objectId].sort(),
    );

    // The link proves the address, which the member's account carries without claiming it.
    await send('POST', '/api/my-data', { email });
    const link = await dataLink(email);
    const download = await send('GET', '/api/my-data', undefined, `Bearer ${link}`);
    expect(download.json.data.account).toBeNull();
    expect(download.json.data.accountsWithAddress).toEqual([
      expect.objectContaining({ displayName: 'Xavier Umber', identity: { provider: 'sso:site' } }),
    ]);
    expect((download.json.data.comments as Json[]).map((comment) => comment.id).sort()).toEqual(
      [member.objectId, before.objectId].sort(),
    );

    const erased = await send('DELETE', '/api/my-data', undefined, `Bearer ${link}`);
    expect(erased.json, erased.text).toMatchObject({
      data: { done: true, removed: 2, kept: 0, contacts: 1 },
    });
    expect(await counts('/p4')).toEqual([0]);
    const readable = await everythingReadable(['/p4']);
    for (const trace of ['xavier.umber', 'xu as a member', 'xu before']) {
      expect(readable.toLowerCase(), trace).not.toContain(trace.toLowerCase());
    }
    // The member keeps their sign-in (and their name), without the address.
    const profile = await send('GET', '/api/token', undefined, `Bearer ${token}`);
    expect(profile.json.data, profile.text).toMatchObject({ display_name: 'Xavier Umber', email: '' });
  });
});
