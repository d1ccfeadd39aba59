import { describe, expect, it } from 'vitest';
import { buildMailMessage } from '../../../../../functions/notify/channels/mail-message.js';
import type { NotificationLinks } from '../../../../../functions/notify/links.js';
import type { Notice } from '../../../../../functions/notify/notice.js';
import { renderMail } from '../../../../../functions/notify/templates/render-mail.js';
import { config, now, replyNotice, senderAddress, waitingNotice } from './notice-fixtures.js';

const longUnsubscribe = `http://127.0.0.1:8360/api/notification/unsubscribe?token=${'t'.repeat(120)}`;

/** Links that say which were asked for. */
const fakeLinks = (available = true): NotificationLinks & { readonly asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    available,
    unsubscribe: (address, rootId) => {
      asked.push(`unsubscribe ${address} ${rootId}`);
      return Promise.resolve(longUnsubscribe);
    },
    confirm: (address, eventId) => {
      asked.push(`confirm ${address} ${eventId}`);
      return Promise.resolve(`https://api.example/c?token=${eventId}`);
    },
    moderation: (commentId) => {
      asked.push(`moderation ${commentId}`);
      const link = (action: string) => `https://api.example/m?${action}`;
      return Promise.resolve({
        approve: link('a'),
        spam: link('s'),
        delete: link('d'),
        expiresAt: now,
      });
    },
  };
};

const build = (notice: Notice, links = fakeLinks()) =>
  buildMailMessage(notice, {
    site: config,
    templates: {},
    sender: { name: 'Notes', address: senderAddress },
    links,
    now: () => now,
    boundary: () => 'fixed',
  });

const headerLines = (raw: Buffer) => raw.toString('utf8').split('\r\n\r\n')[0]!.split('\r\n');

describe('buildMailMessage', () => {
  it('asks Exchange not to auto-answer, and writes the unsubscribe link unfolded', async () => {
    const { raw } = await build(replyNotice());
    const lines = headerLines(raw);
    expect(lines).toContain('X-Auto-Response-Suppress: OOF, AutoReply');
    expect(lines).toContain(`List-Unsubscribe: <${longUnsubscribe}>`);
  });

  it('offers one-click unsubscribe only over https', async () => {
    const { raw } = await build(replyNotice());
    expect(headerLines(raw).some((line) => line.startsWith('List-Unsubscribe-Post'))).toBe(false);
  });

  it('asks for moderation links only for the owner’s mail of a waiting comment, when links can be built', async () => {
    for (const notice of [
      waitingNotice({ template: 'owner-new' }),
      waitingNotice({ template: 'test', self: undefined, parent: undefined }),
    ]) {
      const links = fakeLinks();
      await build(notice, links);
      expect(links.asked).toEqual([]);
    }
    const unavailable = fakeLinks(false);
    const { raw } = await build(waitingNotice(), unavailable);
    expect(unavailable.asked).toEqual([]);
    expect(raw.toString()).not.toContain('api.example/m');
    const available = fakeLinks();
    await build(waitingNotice(), available);
    expect(available.asked).toEqual([`moderation ${waitingNotice().self!.id}`]);
  });

  it('gives a confirmation mail its confirmation link and the site’s unsubscribe link: no comment, no custom template', async () => {
    const links = fakeLinks();
    const siteUnsubscribe = 'https://api.example/u?token=site&x=1';
    const notice = replyNotice({ template: 'confirm', self: undefined, parent: undefined });
    const message = await buildMailMessage(notice, {
      site: config,
      templates: { MAIL_SUBJECT: 'CUSTOM {{ self.nick }}', MAIL_TEMPLATE: 'CUSTOM {{ self.comment }}' },
      sender: { name: 'Notes', address: senderAddress },
      links: {
        ...links,
        unsubscribe: (address, rootId) => links.unsubscribe(address, rootId).then(() => siteUnsubscribe),
      },
      now: () => now,
      boundary: () => 'fixed',
    });

    // The whole site: no thread, so nothing of the replier's.
    expect(links.asked).toEqual([
      `confirm ${notice.to} ${notice.eventId}`,
      `unsubscribe ${notice.to} undefined`,
    ]);
    const text = message.raw.toString('utf8');
    expect(text).not.toContain('CUSTOM');
    const lines = headerLines(message.raw);
    expect(lines).toContain(`List-Unsubscribe: <${siteUnsubscribe}>`);
    expect(lines).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const rendered = renderMail(notice, {
      site: config,
      templates: {},
      links: { confirm: 'https://api.example/c?token=01&x=1', unsubscribe: siteUnsubscribe },
    });
    expect(rendered.subject).toMatch(/^Someone replied to a comment on .+: get reply notices\?$/);
    expect(rendered.html).toContain('href="https://api.example/c?token=01&amp;x=1"');
    expect(rendered.text).toContain('https://api.example/c?token=01&x=1');
    // In its own words, once: not the reply mail's footer, which offers to mute a thread.
    expect(rendered.html).toContain(
      '<a href="https://api.example/u?token=site&amp;x=1">stop every mail from Notes &amp; Queries</a>',
    );
    expect(rendered.html.split('api.example/u?')).toHaveLength(2);
    expect(rendered.text).toContain(siteUnsubscribe);
    const chinese = renderMail(
      { ...notice, lang: 'zh-CN' },
      { site: config, templates: {}, links: { confirm: 'https://c', unsubscribe: 'https://u' } },
    );
    expect(chinese.html).toContain('接收回复通知');
    expect(chinese.html).toContain('<a href="https://u">退订 Notes &amp; Queries 发往这个地址的所有邮件</a>');
    expect(chinese.html.split('https://u')).toHaveLength(2);
  });

  it('refuses a notice without an address, naming its recipient kind', async () => {
    await expect(build(replyNotice({ to: undefined }))).rejects.toThrow(
      'a parent mail needs an address, and this notice has none',
    );
  });

  it('ends every line with CRLF, as SMTP sends it', async () => {
    const { raw } = await build(replyNotice());
    expect(raw.toString('utf8')).not.toMatch(/[^\r]\n/);
  });

  it('draws a fresh random boundary for each message when none is given', async () => {
    const boundaries = await Promise.all(
      [1, 2].map(async () => {
        const { raw } = await buildMailMessage(replyNotice(), {
          site: config,
          templates: {},
          sender: { name: 'Notes', address: senderAddress },
          links: fakeLinks(),
          now: () => now,
        });
        return /boundary="([^"]+)"/.exec(raw.toString())?.[1];
      }),
    );
    expect(boundaries[0]).toMatch(/[0-9a-f]{24}/);
    expect(boundaries[0]).not.toBe(boundaries[1]);
  });

  it('names the recipient by address alone, with no display name', async () => {
    const { raw, to } = await build(replyNotice());
    expect(to).toBe('reader@example.com');
    expect(headerLines(raw)).toContain('To: reader@example.com');
  });
});
