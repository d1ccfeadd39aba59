import { randomBytes } from 'node:crypto';
import type { HttpResult } from '../../shared/http/http-types.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON safe to embed in a <script type="application/json"> element. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const baseStyle = `
  :root { color-scheme: light dark; --accent: #2f6feb; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 2rem 1rem; line-height: 1.5; }
  main { max-width: 56rem; margin: 0 auto; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  form.card { max-width: 22rem; display: grid; gap: .75rem; }
  label { display: grid; gap: .25rem; font-size: .9rem; }
  input, button, select { font: inherit; padding: .45rem .6rem; border-radius: .4rem; border: 1px solid #8886; }
  button { cursor: pointer; background: var(--accent); color: white; border-color: var(--accent); }
  button.secondary { background: transparent; color: inherit; border-color: #8886; }
  button.danger { background: #c0392b; border-color: #c0392b; }
  .error { color: #c0392b; min-height: 1.5em; }
  .muted { opacity: .7; font-size: .85rem; }
  [hidden] { display: none !important; }
`;

/**
 * A small HTML page with a strict Content-Security-Policy: only its own nonce-bearing script and
 * style run, it may only call this server, and no other site may frame it (no clickjacking).
 */
export function htmlPage(page: {
  title: string;
  body: string;
  style?: string;
  script: string;
  /** Images from other sites (avatars); false: only this server's and data: images load. */
  remoteImages?: boolean;
  /**
   * A third party's script the page loads (the captcha's), with the sources its scripts and frames come from:
   * only these are added to the policy, on this page only.
   */
  thirdParty?: {
    readonly script: string;
    readonly scriptSources: readonly string[];
    readonly frameSources: readonly string[];
  };
}): HttpResult {
  const nonce = randomBytes(16).toString('base64');
  const { thirdParty } = page;
  const externalScript = thirdParty
    ? `<script nonce="${nonce}" src="${escapeHtml(thirdParty.script)}" async></script>\n`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
<style nonce="${nonce}">${baseStyle}${page.style ?? ''}</style>
</head>
<body>
${page.body}
${externalScript}<script nonce="${nonce}">${page.script}</script>
</body>
</html>`;
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': [
        "default-src 'none'",
        [`script-src 'nonce-${nonce}'`, ...(thirdParty?.scriptSources ?? [])].join(' '),
        ...(thirdParty ? [`frame-src ${thirdParty.frameSources.join(' ')}`] : []),
        `style-src 'nonce-${nonce}'`,
        "connect-src 'self'",
        page.remoteImages === false ? "img-src 'self' data:" : "img-src 'self' https: data:",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
      // As the meta element says, but before any of the page is parsed: an address that carries a token
      // (`/ui/profile?token=`) is never sent on as a Referer.
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
    body: html,
  };
}
