import { describe, expect, it } from 'vitest';
import type { NoticeTemplate } from '../../../../../functions/notify/notice.js';
import { renderMail } from '../../../../../functions/notify/templates/render-mail.js';
import { testConfig } from '../../../../support/test-config.js';
import {
  config,
  now,
  parentComment,
  replyComment,
  replyNotice,
  waitingNotice,
} from '../channels/notice-fixtures.js';

const noLinks = {};

describe('renderMail', () => {
  it.each(
    (['owner-new', 'owner-waiting', 'reply', 'test'] as const satisfies readonly NoticeTemplate[]).flatMap(
      (template) => (['en', 'zh-CN'] as const).map((lang) => [template, lang] as const),
    ),
  )('renders a default %s mail in %s', (template, lang) => {
    const notice =
      template === 'test'
        ? replyNotice({ template, lang, self: undefined, parent: undefined })
        : replyNotice({ template, lang });
    const mail = renderMail(notice, { site: config, templates: {}, links: noLinks });
    expect(mail.subject).toContain('Notes & Queries');
    expect(mail.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${lang}">`));
    expect(`${mail.subject}${mail.html}${mail.text}`).not.toMatch(/\{\{|\{%|undefined/);
    if (lang === 'zh-CN') expect(mail.subject).toMatch(/[\u4e00-\u9fff]/);
    else expect(mail.subject).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('applies MAIL_SUBJECT_ADMIN and MAIL_TEMPLATE_ADMIN to both owner mails, with Waline’s variables', () => {
    const templates = {
      MAIL_SUBJECT_ADMIN: '[{{ site.name }}] {{ self.nick }} ({{ self.status }})',
      MAIL_TEMPLATE_ADMIN:
        '<p>{{ self.objectId }} on {{ self.url }}: {{ self.comment | safe }} → {{ site.postUrl }}</p>',
    };
    for (const template of ['owner-new', 'owner-waiting'] as const) {
      const status = template === 'owner-new' ? 'approved' : 'waiting';
      const mail = renderMail(waitingNotice({ template, self: { ...replyComment, status } }), {
        site: config,
        templates,
        links: noLinks,
      });
      expect(mail.subject).toBe(`[Notes & Queries] <script>alert(1)</script> Eve & "Co" (${status})`);
      expect(mail.html).toContain(
        `<p>${replyComment.id} on /posts/hello/: <p>See https://blog.example/login (https://evil.example/login) </p> → https://blog.example/posts/hello/#${replyComment.id}</p>`,
      );
    }
  });

  it("says in the owner's waiting mail why the comment was held, in the owner's language, and nothing when unknown", () => {
    const english = renderMail(
      waitingNotice({ self: { ...replyComment, status: 'waiting', heldBecause: 'first_comment' } }),
      {
        site: config,
        templates: {},
        links: noLinks,
      },
    );
    const chinese = renderMail(
      waitingNotice({
        lang: 'zh-CN',
        self: { ...replyComment, status: 'waiting', heldBecause: 'akismet_unreachable' },
      }),
      { site: config, templates: {}, links: noLinks },
    );
    const unknown = renderMail(waitingNotice({ self: { ...replyComment, status: 'waiting' } }), {
      site: config,
      templates: {},
      links: noLinks,
    });

    expect(english.html).toContain(
      '<p>Held because: first comment from this address (COMMENT_AUDIT=first).</p>',
    );
    expect(english.text).toContain('Held because: first comment from this address (COMMENT_AUDIT=first).');
    expect(chinese.html).toContain('<p>待审原因：无法连接 Akismet。</p>');
    expect(unknown.html).not.toContain('Held because');
  });

  it('offers why a comment was held to custom templates as self.heldBecause and self.heldReason', () => {
    const mail = renderMail(
      waitingNotice({ self: { ...replyComment, status: 'waiting', heldBecause: 'audit' } }),
      {
        site: config,
        templates: { MAIL_TEMPLATE_ADMIN: '<p>{{ self.heldBecause }}: {{ self.heldReason }}</p>' },
        links: noLinks,
      },
    );

    expect(mail.html).toContain('<p>audit: every comment waits for approval (COMMENT_AUDIT)</p>');
  });

  it('leaves the reply and test mails to their own templates when only the admin ones are set', () => {
    const templates = { MAIL_SUBJECT_ADMIN: 'ADMIN', MAIL_TEMPLATE_ADMIN: 'ADMIN BODY' };
    expect(renderMail(replyNotice(), { site: config, templates, links: noLinks }).subject).toBe(
      'Your comment on Notes & Queries received a reply',
    );
    const test = replyNotice({ template: 'test', recipient: 'owner', self: undefined, parent: undefined });
    expect(
      renderMail(test, { site: config, templates: { ...templates, MAIL_SUBJECT: 'R' }, links: noLinks })
        .subject,
    ).toBe('Test notification from Notes & Queries');
  });

  it('offers no address: self.mail and parent.mail are empty', () => {
    const notice = replyNotice();
    const withMail = {
      ...notice,
      self: { ...replyComment, mail: 'eve@evil.example' },
      parent: { ...parentComment, mail: 'r@x.example' },
    };
    const mail = renderMail(withMail, {
      site: config,
      templates: {
        MAIL_TEMPLATE: '<p>[{{ self.mail }}][{{ parent.mail }}][{{ self.ip }}][{{ self.ua }}]</p>',
      },
      links: noLinks,
    });
    expect(mail.html).toContain('<p>[][][][]</p>');
  });

  it('folds a subject to one line', () => {
    const notice = replyNotice({ parent: { ...parentComment, nick: 'Reader\r\nBcc: victim@evil.example' } });
    const mail = renderMail(notice, {
      site: config,
      templates: { MAIL_SUBJECT: '{{ parent.nick }}\n  replied' },
      links: noLinks,
    });
    expect(mail.subject).toBe('Reader Bcc: victim@evil.example replied');
  });

  it('cuts a long subject', () => {
    const mail = renderMail(replyNotice(), {
      site: config,
      templates: { MAIL_SUBJECT: 'x'.repeat(500) },
      links: noLinks,
    });
    expect(Array.from(mail.subject)).toHaveLength(200);
  });

  it('puts the footer inside the body of a custom template that is a whole document', () => {
    const mail = renderMail(replyNotice(), {
      site: config,
      templates: { MAIL_TEMPLATE: '<html><head><title>T</title></head><body><p>Hi</p></body></html>' },
      links: { unsubscribe: 'https://comments.example/u?token=t' },
    });
    expect(mail.html).toMatch(
      /<p>Hi<\/p><p style="[^"]*">You receive this mail[\s\S]*<\/p>\n<\/body><\/html>$/,
    );
    expect(mail.text).toMatch(/^Hi\n\nYou receive this mail/);
  });

  it('shows the moderation links and their expiry under the owner’s waiting mail', () => {
    const links = {
      approve: 'https://c.example/a',
      spam: 'https://c.example/s',
      delete: 'https://c.example/d',
      expiresAt: now,
    };
    const mail = renderMail(waitingNotice(), { site: config, templates: {}, links: { moderation: links } });
    expect(mail.html).toContain(
      '<a href="https://c.example/a">Approve</a> · <a href="https://c.example/s">Mark as spam</a> · <a href="https://c.example/d">Delete</a>',
    );
    expect(mail.text).toContain(
      'Approve (https://c.example/a) · Mark as spam (https://c.example/s) · Delete (https://c.example/d)',
    );
    expect(mail.text).toContain('works until 2026-11-25 12:00 UTC');
    // The moderation footer alone closes the body: no unsubscribe footer, nothing in its place.
    expect(mail.html).toMatch(/UTC[^<]*<\/p>\n<\/body>\n<\/html>$/);
  });

  it('names the site by its host without SITE_NAME', () => {
    const mail = renderMail(replyNotice(), {
      site: testConfig({ SITE_URL: 'https://notes.example/' }),
      templates: {},
      links: noLinks,
    });
    expect(mail.subject).toBe('Your comment on notes.example received a reply');
  });
});

describe('renderMail: edges', () => {
  const render = (templates: Record<string, string>, links = {}) =>
    renderMail(replyNotice(), { site: config, templates, links });

  it('trims a subject, and keeps one of exactly 200 characters whole', () => {
    expect(render({ MAIL_SUBJECT: '  {{ site.name }}  ' }).subject).toBe('Notes & Queries');
    expect(render({ MAIL_SUBJECT: 'y'.repeat(200) }).subject).toBe('y'.repeat(200));
  });

  it('keeps the frame of a custom document whose tags have attributes or spaces', () => {
    const mail = render(
      { MAIL_TEMPLATE: '<html lang="fr"><body><p>Salut</p></body ></html>' },
      { unsubscribe: 'https://c.example/u' },
    );
    expect(mail.html).toMatch(
      /^<html lang="fr"><body><p>Salut<\/p><p [^>]*>[\s\S]*<\/p>\n<\/body ><\/html>$/,
    );
  });

  it('gives a custom template no link to place: the unsubscribe link is the footer’s, which it cannot leave out', () => {
    const mail = render(
      { MAIL_TEMPLATE: '<p>[{{ links.unsubscribe }}]</p>' },
      { unsubscribe: 'https://c.example/u' },
    );
    expect(mail.html).toContain('<p>[]</p>');
    expect(mail.html.split('https://c.example/u')).toHaveLength(2);
  });

  it('puts the footer after a custom document that has no body', () => {
    const mail = render({ MAIL_TEMPLATE: '<html><p>Hi</p></html>' }, { unsubscribe: 'https://c.example/u' });
    expect(mail.html).toMatch(
      /^<html><p>Hi<\/p><\/html>\n<p [^>]*>[\s\S]*https:\/\/c\.example\/u[\s\S]*<\/p>$/,
    );
  });

  it('escapes the links in the footers as HTML', () => {
    const reply = render({}, { unsubscribe: 'https://c.example/u?a=1&b=2' });
    expect(reply.html).toContain('href="https://c.example/u?a=1&amp;b=2"');
    const links = {
      approve: 'https://c.example/a?x&y',
      spam: 'https://c.example/s',
      delete: 'https://c.example/d',
      expiresAt: now,
    };
    const waiting = renderMail(waitingNotice(), {
      site: config,
      templates: {},
      links: { moderation: links },
    });
    expect(waiting.html).toContain('href="https://c.example/a?x&amp;y"');
  });
});
