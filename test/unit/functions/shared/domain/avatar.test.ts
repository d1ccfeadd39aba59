import { describe, expect, it } from 'vitest';
import {
  createAvatarResolver,
  templatePublishesMail,
} from '../../../../../functions/shared/domain/avatar.js';

const aliceMd5 = 'c160f8cc69a4f0bf2b0362752353d060';
const aliceSha256 = 'ff8d9819fc0e12bf0d24892e45987e249a28dce836a85cad60e28eaaa8c6d976';

describe('createAvatarResolver', () => {
  it('returns the libravatar URL of the md5 of the mail when no rule matches', () => {
    const resolve = createAvatarResolver({});

    const avatar = resolve({ nick: 'Alice', mail: 'alice@example.com' });

    expect(avatar).toBe(`https://seccdn.libravatar.org/avatar/${aliceMd5}`);
  });

  it('hashes the trimmed lower-cased mail when the mail has spaces and capitals', () => {
    const resolve = createAvatarResolver({});

    const avatar = resolve({ nick: 'Alice', mail: '  Alice@Example.com ' });

    expect(avatar).toBe(`https://seccdn.libravatar.org/avatar/${aliceMd5}`);
  });

  it('hashes the empty string when the mail is empty', () => {
    const resolve = createAvatarResolver({});

    const avatar = resolve({ nick: 'Anonymous', mail: '' });

    expect(avatar).toBe('https://seccdn.libravatar.org/avatar/d41d8cd98f00b204e9800998ecf8427e');
  });

  it('gives a QQ nick and a QQ mail their libravatar md5 when the QQ rule is off, as it is by default', () => {
    const resolve = createAvatarResolver({});

    const byNick = resolve({ nick: '10001', mail: 'alice@example.com' });
    const byMail = resolve({ nick: 'Alice', mail: '12345@qq.com' });

    expect(byNick).toBe(`https://seccdn.libravatar.org/avatar/${aliceMd5}`);
    expect(byMail).toMatch(/^https:\/\/seccdn\.libravatar\.org\/avatar\/[0-9a-f]{32}$/);
    expect(byMail).not.toContain('12345');
  });

  it('returns the QQ avatar of the nick when the QQ rule is on and the nick is only digits', () => {
    const resolve = createAvatarResolver({ qq: true });

    const avatar = resolve({ nick: '10001', mail: 'alice@example.com' });

    expect(avatar).toBe('https://q1.qlogo.cn/g?b=qq&nk=10001&s=100');
  });

  it('returns the QQ avatar of the mail number when the QQ rule is on and the mail is a qq.com address in any case', () => {
    const resolve = createAvatarResolver({ qq: true });

    const avatar = resolve({ nick: 'Alice', mail: '12345@QQ.com' });

    expect(avatar).toBe('https://q1.qlogo.cn/g?b=qq&nk=12345&s=100');
  });

  it('falls back to libravatar when the mail looks like qq.com with another character for the dot', () => {
    const resolve = createAvatarResolver({ qq: true });

    const avatar = resolve({ nick: 'Alice', mail: '12345@qqxcom' });

    expect(avatar).toMatch(/^https:\/\/seccdn\.libravatar\.org\/avatar\/[0-9a-f]{32}$/);
  });

  it('renders the md5 filter when the template spells it with or without spaces', () => {
    const resolve = createAvatarResolver({ template: 'https://a.test/{{mail|md5}}/{{ mail | md5 }}' });

    const avatar = resolve({ nick: 'Alice', mail: 'Alice@example.com' });

    expect(avatar).toBe(`https://a.test/${aliceMd5}/${aliceMd5}`);
  });

  it('renders the sha256 filter when the template uses it', () => {
    const resolve = createAvatarResolver({ template: 'https://gravatar.test/avatar/{{mail|sha256}}?d=mp' });

    const avatar = resolve({ nick: 'Alice', mail: ' alice@example.com' });

    expect(avatar).toBe(`https://gravatar.test/avatar/${aliceSha256}?d=mp`);
  });

  it('URL-encodes the nick, and leaves a raw mail out, when the template inserts them raw', () => {
    const resolve = createAvatarResolver({ template: 'https://a.test/?n={{nick}}&m={{ mail }}' });

    const avatar = resolve({ nick: 'A&B ?', mail: 'a+b@example.com' });

    expect(avatar).toBe('https://a.test/?n=A%26B%20%3F&m=');
  });

  it('renders an empty string when the template has an unknown expression', () => {
    const resolve = createAvatarResolver({ template: 'https://a.test/{{link}}/{{mail|upper}}/x' });

    const avatar = resolve({ nick: 'Alice', mail: 'alice@example.com' });

    expect(avatar).toBe('https://a.test///x');
  });

  it('wraps the URL in the proxy when a proxy is set', () => {
    const resolve = createAvatarResolver({ proxy: 'https://proxy.test/avatar', qq: true });

    const avatar = resolve({ nick: '10001', mail: '' });

    expect(avatar).toBe(
      `https://proxy.test/avatar?url=${encodeURIComponent('https://q1.qlogo.cn/g?b=qq&nk=10001&s=100')}`,
    );
  });

  it('leaves the URL alone when it already starts with the proxy', () => {
    const resolve = createAvatarResolver({
      proxy: 'https://proxy.test/avatar',
      template: 'https://proxy.test/avatar/{{mail|md5}}',
    });

    const avatar = resolve({ nick: 'Alice', mail: 'alice@example.com' });

    expect(avatar).toBe(`https://proxy.test/avatar/${aliceMd5}`);
  });
});

describe('templatePublishesMail', () => {
  it('is true when a template inserts the mail without a hash filter, however it is spelled', () => {
    for (const template of [
      'https://a.test/{{mail}}',
      'https://a.test/{{ mail }}.png',
      'https://a.test/{{mail|lower}}',
      'https://a.test/{{mail|md5}}/{{mail}}',
      'https://a.test/{{mail|md5|trim}}',
    ]) {
      expect(templatePublishesMail(template), template).toBe(true);
    }
  });

  it('is false when every mail is hashed with md5 or sha256, or there is none', () => {
    for (const template of [
      'https://a.test/{{mail|md5}}',
      'https://a.test/{{ mail | sha256 }}?d=mp',
      'https://a.test/{{mail|trim|md5}}',
      'https://a.test/{{nick}}',
      'https://a.test/static.png',
    ]) {
      expect(templatePublishesMail(template), template).toBe(false);
    }
  });
});
