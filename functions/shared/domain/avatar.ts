import { createHash } from 'node:crypto';

/** The avatar URL of an author. */
export type AvatarFor = (author: { readonly nick: string; readonly mail: string }) => string;

/** How avatars are resolved: Waline's `AVATAR_PROXY` and `GRAVATAR_STR` settings. */
export interface AvatarOptions {
  /** A proxy URL; avatar URLs become `<proxy>?url=<encoded avatar URL>`. */
  proxy?: string;
  /**
   * A template with `{{nick}}`, `{{mail|md5}}` or `{{mail|sha256}}` (`{{mail}}` is refused by config:
   * see templatePublishesMail); the default rule when absent.
   */
  template?: string;
  /**
   * Waline's QQ rule in the default: a nick of digits, or a `<digits>@qq.com` mail, gives that QQ
   * number's avatar. Off unless asked for (AVATAR_QQ): its URL spells the number, so the address.
   */
  qq?: boolean;
}

type Author = { nick: string; mail: string };

const QQ_NUMBER = /^[0-9]+$/;
const QQ_MAIL = /^([0-9]+)@qq\.com$/i;
const TEMPLATE_EXPRESSION = /\{\{(.*?)\}\}/g;
const KNOWN_EXPRESSION = /^\s*(nick|mail)\s*(?:\|\s*(md5|sha256)\s*)?$/;

function hash(algorithm: 'md5' | 'sha256', value: string): string {
  return createHash(algorithm).update(value.trim().toLowerCase()).digest('hex');
}

function qqAvatar(qq: string): string {
  return `https://q1.qlogo.cn/g?b=qq&nk=${qq}&s=100`;
}

function libravatar({ mail }: Author): string {
  return `https://seccdn.libravatar.org/avatar/${hash('md5', mail)}`;
}

/** Waline's default: the QQ avatar of a nick of digits or of a QQ mail, else libravatar. */
function qqOrLibravatar(author: Author): string {
  if (QQ_NUMBER.test(author.nick)) {
    return qqAvatar(author.nick);
  }
  const qqMail = QQ_MAIL.exec(author.mail.trim());
  if (qqMail?.[1] !== undefined) {
    return qqAvatar(qqMail[1]);
  }
  return libravatar(author);
}

function renderTemplate(template: string, author: Author): string {
  return template.replace(TEMPLATE_EXPRESSION, (_expression, body: string) => {
    const [, field, filter] = KNOWN_EXPRESSION.exec(body) ?? [];
    if (field !== 'nick' && field !== 'mail') {
      return '';
    }
    const value = author[field];
    if (filter === 'md5' || filter === 'sha256') {
      return hash(filter, value);
    }
    // Config refuses a raw mail (templatePublishesMail); should one get here, it still stays private.
    return field === 'mail' ? '' : encodeURIComponent(value);
  });
}

/**
 * True when `template` would publish commenters' mail addresses: a `{{...}}` naming `mail` that does
 * not end in a hash filter (`md5` or `sha256`, the two Waline's GRAVATAR_STR adds to nunjucks' own,
 * which leave the address readable).
 */
export function templatePublishesMail(template: string): boolean {
  return [...template.matchAll(TEMPLATE_EXPRESSION)].some(
    ([, body = '']) => /\bmail\b/.test(body) && !/\|\s*(?:md5|sha256)\s*$/.test(body),
  );
}

/** Builds the function that gives a comment author's avatar URL, the way Waline's `formatCmt` does. */
export function createAvatarResolver(options: AvatarOptions): AvatarFor {
  const { proxy, template } = options;
  const resolve = template
    ? (author: Author) => renderTemplate(template, author)
    : options.qq
      ? qqOrLibravatar
      : libravatar;
  return (author) => {
    const url = resolve(author);
    if (!proxy || url.startsWith(proxy)) {
      return url;
    }
    return `${proxy}?url=${encodeURIComponent(url)}`;
  };
}
