import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { type MailNotifier, startMailNotifier } from '../support/mailed-site.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { openHarness } from './support/harness.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

/**
 * A reader's whole way through the unmodified v3 widget: registers from the login popup, confirms from the
 * mail the notifier sent to a real SMTP server, signs in from the widget's login button, posts, edits and
 * deletes their own comment, and gets no edit or delete button on someone else's.
 */

const reader = {
  name: 'Rita Reader',
  email: 'rita@reader.example.test',
  password: 'a reader with a long password',
};
const waitForMail = { timeout: 20_000, interval: 50 };

/** What the comment routes answer (Waline's envelope around the comment). */
interface CommentAnswer {
  readonly errno: number;
  readonly errmsg: string;
  readonly data: { objectId: string; nick: string; user_id?: string; comment: string; type?: string };
}

describe('a reader account, through the real widget (v3)', () => {
  let sink: SmtpSink;
  let server: WidgetServer;
  let browser: Browser;
  let notifier: MailNotifier;
  let opened: GuardedContext | undefined;
  /** Errors thrown by the popups' scripts (openGuardedContext watches only its first page). */
  const popupErrors: string[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    const mail = {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SENDER_EMAIL: 'noreply@blog.example.test',
      SENDER_NAME: 'Test Blog',
      SITE_NAME: 'Test Blog',
      LINK_SECRET: 'reader-browser-links-0123456789abcdef-0123',
    };
    [server, browser] = await Promise.all([
      startWidgetServer({ JWT_TOKEN: 'j'.repeat(48), REGISTRATION: 'open', LIST_CACHE_MS: '0', ...mail }),
      launchChromium(),
    ]);
    // The mails' links lead to this server, whose port is known only now.
    const settings = { ...mail, SERVER_URL: server.base };
    notifier = await startMailNotifier(server.table, settings);
  });
  afterAll(async () => {
    await notifier?.stop();
    await browser?.close();
    await server?.stop();
    await sink?.stop();
  });
  afterEach(async ({ task }) => {
    if (opened && task.result?.state === 'fail') {
      for (const [i, page] of opened.context.pages().entries())
        await saveFailureScreenshot(page, `reader-account ${task.name} ${i}`).catch(() => {});
    }
    await opened?.context.close();
    opened = undefined;
  });

  /** Waits for the popup `click` opens. */
  const popupOf = async (page: Page, click: () => Promise<void>) => {
    const popup = page.waitForEvent('popup');
    await click();
    return popup;
  };
  /** The confirmation link of the registration mail to `address`, as the reader would click it. */
  const confirmationLink = async (address: string) => {
    const subject = 'Registration Confirm Mail';
    await expect
      .poll(
        () => sink.mailsTo(address).filter((mail) => mail.parsed.subject?.includes(subject)).length,
        waitForMail,
      )
      .toBe(1);
    const mail = sink.mailsTo(address).find((item) => item.parsed.subject?.includes(subject));
    const link = new RegExp(`${server.base}/api/verification\\?token=[\\w.-]+`).exec(mail?.parsed.text ?? '');
    expect(link, 'a confirmation link to this server in the mail').not.toBeNull();
    return link?.[0] ?? '';
  };
  /** The answer to the next `method` request to the comment routes that `action` causes. */
  const commentAnswer = async (
    page: Page,
    method: 'POST' | 'PUT' | 'DELETE',
    action: () => Promise<void>,
  ) => {
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === method && new URL(response.url()).pathname.startsWith('/api/comment'),
    );
    await action();
    const response = await answered;
    return { status: response.status(), json: (await response.json()) as CommentAnswer };
  };

  it('registers from the login popup, confirms from the mail, signs in, and edits and deletes only their own comment', async () => {
    opened = await openGuardedContext(browser);
    const { context, page, blocked, pageErrors } = opened;
    context.on('page', (popup) => popup.on('pageerror', (error) => popupErrors.push(error.message)));
    // The widget asks before it deletes (window.confirm): the reader says yes. Other dialogs (the widget's
    // alerts of a refused request) are listed and fail the test.
    page.removeAllListeners('dialog');
    const confirms: string[] = [];
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      if (dialog.type() === 'confirm') {
        confirms.push(dialog.message());
        void dialog.accept();
      } else {
        alerts.push(dialog.message());
        void dialog.dismiss();
      }
    });

    // Someone else's comment on the same page, posted anonymously.
    const path = `/reader-account-${Date.now()}`;
    const other = (await server.api(
      'POST',
      '/api/comment',
      { url: path, nick: 'Bob', comment: 'Bob was here first' },
      '127.0.0.9',
    )) as CommentAnswer;
    expect(other.errno).toBe(0);
    await openHarness(page, server.base, 'v3', { path, login: true });
    await page.locator('.wl-card-item', { hasText: 'Bob was here first' }).waitFor();

    // 1. Register: the widget's login button opens /ui/login, whose link leads to /ui/register.
    const loginButton = page.getByRole('button', { name: /login/i }).first();
    const registration = await popupOf(page, () => loginButton.click());
    await registration.waitForURL((url) => url.pathname === '/ui/login');
    await registration.getByRole('link', { name: 'Create an account' }).click();
    await registration.waitForURL((url) => url.pathname === '/ui/register');
    await registration.locator('input[name=display_name]').fill(reader.name);
    await registration.locator('input[name=email]').fill(reader.email);
    await registration.locator('input[name=password]').fill(reader.password);
    await registration.locator('input[name=confirm]').fill(reader.password);
    await registration.getByRole('button', { name: 'Create account' }).click();
    await registration.locator('#done').waitFor();
    expect(await registration.locator('#done').innerText()).toContain('Check your mailbox.');
    expect(await registration.locator('#error').textContent()).toBe('');
    expect(await server.services.accounts.findByEmail(reader.email)).toMatchObject({
      displayName: reader.name,
      state: 'unconfirmed',
      type: 'guest',
    });
    // Unconfirmed, the account cannot sign in yet.
    await expect(server.api('POST', '/api/token', reader)).rejects.toThrow(
      /answered 403.*Confirm your email/,
    );
    await registration.close();

    // 2. Confirm: the mailed link opens a page that changes nothing until its button is pressed.
    const link = await confirmationLink(reader.email);
    const confirmation = await context.newPage();
    confirmation.on('pageerror', (error) => popupErrors.push(error.message));
    await confirmation.goto(link);
    const confirmButton = confirmation.getByRole('button', { name: 'Confirm my account' });
    await confirmButton.waitFor();
    expect((await server.services.accounts.findByEmail(reader.email))?.state).toBe('unconfirmed');
    // A confirmation page that asks for the password (so that a mailbox alone does not confirm) gets it.
    const passwordField = confirmation.locator('input[name=password]');
    if ((await passwordField.count()) > 0) await passwordField.fill(reader.password);
    await confirmButton.click();
    await confirmation.getByRole('heading', { name: 'Your account is confirmed' }).waitFor();
    expect((await server.services.accounts.findByEmail(reader.email))?.state).toBe('active');
    await confirmation.close();

    // 3. Sign in from the widget's login button: the popup posts the user back to the page and closes.
    const login = await popupOf(page, () => loginButton.click());
    await login.locator('input[name=email]').fill(reader.email);
    await login.locator('input[name=password]').fill(reader.password);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await login.waitForEvent('close');
    const signedInAs = page.locator('a.wl-login-nick', { hasText: /\S/ });
    await expect.poll(() => signedInAs.textContent()).toBe(reader.name);
    const stored = JSON.parse(
      (await page.evaluate<string | null>("localStorage.getItem('WALINE_USER')")) ?? 'null',
    ) as { objectId?: unknown; display_name?: string } | null;
    expect(stored).toMatchObject({ display_name: reader.name, objectId: expect.any(String) as string });
    const objectId = stored?.objectId as string;
    expect(objectId).toBe((await server.services.accounts.findByEmail(reader.email))?.id);

    // 4. Post: the answer carries the reader's id, and the card shows the reader's profile.
    const mainBox = page.locator('[data-waline] > .wl-comment');
    // Signed in, the widget has no name or address fields: who posts is the account.
    expect(await mainBox.locator('.wl-header').count()).toBe(0);
    await mainBox.locator('.wl-editor').fill('Rita writes her first comment');
    const posted = await commentAnswer(page, 'POST', () => mainBox.locator('.wl-btn.primary').click());
    expect(posted.json).toMatchObject({
      errno: 0,
      data: { nick: reader.name, user_id: objectId, type: 'guest' },
    });
    const mine = page.locator(`[id="${posted.json.data.objectId}"]`);
    const theirs = page.locator(`[id="${other.data.objectId}"]`);
    await mine.locator('.wl-content', { hasText: 'Rita writes her first comment' }).waitFor();
    expect(await mine.locator(':scope > .wl-card .wl-nick').innerText()).toBe(reader.name);
    // After a reload the list shows it as the reader's, from the server's overlay of the profile.
    await page.reload();
    await mine.locator('.wl-content', { hasText: 'Rita writes her first comment' }).waitFor();
    expect(await mine.locator(':scope > .wl-card .wl-nick').innerText()).toBe(reader.name);
    expect(await page.locator('.wl-count .wl-num').innerText()).toBe('2');

    // 6. Someone else's comment: no edit or delete button; the reader's own has both.
    await theirs.locator('.wl-content', { hasText: 'Bob was here first' }).waitFor();
    expect(await theirs.locator(':scope > .wl-card .wl-edit').count()).toBe(0);
    expect(await theirs.locator(':scope > .wl-card .wl-delete').count()).toBe(0);
    expect(await mine.locator(':scope > .wl-card .wl-edit').count()).toBe(1);
    expect(await mine.locator(':scope > .wl-card .wl-delete').count()).toBe(1);

    // 5. Edit from the widget's edit button: the box opens with the text, the new text shows, and it stays.
    await mine.locator(':scope > .wl-card .wl-edit').click();
    const editBox = mine.locator('.wl-edit-wrapper .wl-comment');
    await editBox.locator('.wl-editor').fill('Rita says it better now');
    const edited = await commentAnswer(page, 'PUT', () => editBox.locator('.wl-btn.primary').click());
    expect(edited.json).toMatchObject({ errno: 0, data: { objectId: posted.json.data.objectId } });
    await mine.locator(':scope > .wl-card > .wl-content', { hasText: 'Rita says it better now' }).waitFor();
    expect(await mine.locator('.wl-edit-wrapper').count()).toBe(0);
    await page.reload();
    await mine.locator(':scope > .wl-card > .wl-content', { hasText: 'Rita says it better now' }).waitFor();
    expect(await mine.locator(':scope > .wl-card .wl-nick').innerText()).toBe(reader.name);
    expect(await page.locator('body').innerText()).not.toContain('Rita writes her first comment');

    // ... and delete from the widget's delete button: the card goes, and stays gone after a reload.
    const deleted = await commentAnswer(page, 'DELETE', () =>
      mine.locator(':scope > .wl-card .wl-delete').click(),
    );
    expect(deleted.json.errno).toBe(0);
    expect(confirms).toEqual(['Are you sure you want to delete this comment?']);
    await expect.poll(() => mine.count()).toBe(0);
    await page.reload();
    await theirs.locator('.wl-content', { hasText: 'Bob was here first' }).waitFor();
    expect(await mine.count()).toBe(0);
    expect(await page.locator('.wl-count .wl-num').innerText()).toBe('1');
    expect(await page.locator('body').innerText()).not.toContain('Rita says it better now');

    expect(alerts, 'alerts the widget showed').toEqual([]);
    expect([...blocked, ...pageErrors, ...popupErrors]).toEqual([]);
  });
});
