import { createHash } from 'node:crypto';

/** How avatars are resolved: Waline's `AVATAR_PROXY` and `GRAVATAR_STR` settings. */
export interface AvatarOptions {
  /** A proxy URL; avatar URLs become `<proxy>?url=<encoded avatar URL>`. */
  proxy?: string;
  /** A template with `{{nick}}`, `{{mail}}`, `{{mail|md5}}` or `{{mail|sha256}}`; Waline's rules when absent. */
  template?: string;
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

function defaultAvatar({ nick, mail }: Author): string {
  if (QQ_NUMBER.test(nick)) {
    return qqAvatar(nick);
  }
  const qqMail = QQ_MAIL.exec(mail.trim());
  if (qqMail?.[1] !== undefined) {
    return qqAvatar(qqMail[1]);
  }
  return `https://seccdn.libravatar.org/avatar/${hash('md5', mail)}`;
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
    return encodeURIComponent(value);
  });
}

/** Builds the function that gives a comment author's avatar URL, the way Waline's `formatCmt` does. */
export function createAvatarResolver(
  options: AvatarOptions,
): (author: { nick: string; mail: string }) => string {
  const { proxy, template } = options;
  const resolve = template ? (author: Author) => renderTemplate(template, author) : defaultAvatar;
  return (author) => {
    const url = resolve(author);
    if (!proxy || url.startsWith(proxy)) {
      return url;
    }
    return `${proxy}?url=${encodeURIComponent(url)}`;
  };
}
