/**
 * The files local mode serves besides the API: the demo pages (scripts/demo), the Waline clients from the
 * installed npm packages, and identicon avatars. Every servable file is listed when the site is created and
 * looked up by its exact raw name, so no request path can reach anything else (no decoding, no `..`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CaptchaWidget, captchaSources } from '../functions/comment/pages/captcha-widget.js';
import { embedJson } from '../functions/comment/pages/page-shell.js';
import { type DemoSiteSso, mintDemoAssertion } from './demo-site-backend.js';
import { avatarHashPattern, renderIdenticon } from './identicon.js';

/** A static answer: status, headers and the bytes to send. */
export interface StaticFile {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/**
 * Answers a GET (or HEAD) for `rawPath` (as received, not decoded), and the demo site backend's one POST, or
 * `undefined` when the path is not the site's.
 */
export type LocalSite = (rawPath: string, method?: string) => Promise<StaticFile | undefined>;

const demoDir = join(dirname(fileURLToPath(import.meta.url)), 'demo');
const articleTemplate = join(demoDir, 'article.html');
/** The demo site's sign-in page (single sign-on, docs/single-sign-on.md), served at `/demo/site-login`. */
const siteLoginPage = join(demoDir, 'site-login.html');
/** Where the demo site's page asks its backend (demo-site-backend.ts) for an assertion. */
const assertionPath = '/demo/site-login/assertion';
const requireFromHere = createRequire(import.meta.url);

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The URL prefix of each directory served, and where it is on disk. */
function mounts(): ReadonlyArray<readonly [prefix: string, dir: string]> {
  return [
    ['/demo/', demoDir],
    // The packages export their CSS, so resolving it finds dist/ whatever the package layout or hoisting.
    ['/vendor/waline-v3/', dirname(requireFromHere.resolve('@waline/client/waline.css'))],
    ['/vendor/waline-v2/', dirname(requireFromHere.resolve('waline-client-v2/waline.css'))],
  ];
}

/** The one demo article, shown through each client: what differs between the two pages. */
const clients = {
  '/': {
    client: 'v3',
    major: '3',
    titleSuffix: '',
    scripts: ['<script type="module" src="/demo/demo-v3.js"></script>'],
  },
  '/v2/': {
    client: 'v2',
    major: '2',
    titleSuffix: ' (Waline v2)',
    scripts: [
      '<script src="/vendor/waline-v2/waline.js"></script>',
      '<script type="module" src="/demo/demo-v2.js"></script>',
    ],
  },
} as const;

/**
 * The demo page of `path`, filled from the shared template (placeholders are `{{name}}`). With a captcha, its
 * site key goes to the widget (`turnstileKey` or `recaptchaV3Key`) through a data element demo.js reads.
 */
function renderPage(
  template: string,
  path: keyof typeof clients,
  captcha: CaptchaWidget | undefined,
): Buffer {
  const page = clients[path];
  const widgetKeys = captcha
    ? { [captcha.field === 'turnstile' ? 'turnstileKey' : 'recaptchaV3Key']: captcha.key }
    : {};
  const current = 'aria-current="page"';
  const values: Record<string, string> = {
    client: page.client,
    major: page.major,
    titleSuffix: page.titleSuffix,
    v3Current: page.client === 'v3' ? current : '',
    v2Current: page.client === 'v2' ? current : '',
    scripts: page.scripts.join('\n    '),
    settings: `<script type="application/json" id="demo-settings">${embedJson(widgetKeys)}</script>`,
  };
  return Buffer.from(template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? ''));
}

/**
 * The demo pages' policy: scripts only from this server and never inline, so neither an unsanitised comment
 * nor the widget's live preview (which renders the editor's raw HTML) can run a handler; and no request
 * leaves this machine, but, with a captcha site key set, the provider's scripts and frames.
 */
export function demoContentSecurityPolicy(captcha?: CaptchaWidget): string {
  const provider = captcha ? captchaSources(captcha) : undefined;
  return [
    "default-src 'self'",
    ["script-src 'self'", ...(provider?.scriptSources ?? [])].join(' '),
    // The widget injects its own <style> elements.
    "style-src 'self' 'unsafe-inline'",
    // Avatars come from this server, possibly under another loopback name than the page.
    "img-src 'self' data: http://127.0.0.1:* http://localhost:*",
    "connect-src 'self'",
    provider ? `frame-src ${provider.frameSources.join(' ')}` : "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Lists the servable files once and returns the function that answers for them; `captcha` (TURNSTILE_KEY or
 * RECAPTCHA_V3_KEY) goes to the demo's widget.
 */
export function createLocalSite(
  options: {
    readonly captcha?: CaptchaWidget;
    /**
     * The key and audience the demo site's backend signs assertions with (SSO_SECRET, SSO_AUDIENCE), read at each
     * request (`npm start` knows its port only once it listens); undefined: the demo site cannot sign anyone in.
     */
    readonly sso?: () => DemoSiteSso | undefined;
  } = {},
): LocalSite {
  const policy = demoContentSecurityPolicy(options.captcha);
  const files = new Map<string, string>();
  for (const [prefix, dir] of mounts()) {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      // The article template is served only filled in, and the site's sign-in page at its own path, as pages below.
      if (file === articleTemplate || file === siteLoginPage) continue;
      if (contentTypes[extname(name)] !== undefined && statSync(file).isFile())
        files.set(prefix + name, file);
    }
  }
  const template = readFileSync(articleTemplate, 'utf8');
  const pages = new Map(
    (Object.keys(clients) as Array<keyof typeof clients>).map((path) => [
      path as string,
      renderPage(template, path, options.captcha),
    ]),
  );
  pages.set('/demo/site-login', readFileSync(siteLoginPage));

  return async (rawPath, method = 'GET') => {
    if (method === 'POST') return rawPath === assertionPath ? demoAssertion(options.sso?.()) : undefined;
    if (rawPath === '/v2') return { statusCode: 308, headers: { location: '/v2/' }, body: Buffer.alloc(0) };
    const avatar = /^\/avatar\/([^/]+)\.svg$/.exec(rawPath)?.[1];
    if (avatar !== undefined && avatarHashPattern.test(avatar)) {
      return ok('.svg', Buffer.from(renderIdenticon(avatar)), 'public, max-age=86400');
    }
    const page = pages.get(rawPath);
    if (page !== undefined) return ok('.html', page, 'no-cache', policy);
    const file = files.get(rawPath);
    if (file === undefined) return undefined;
    // Pages and clients change when the packages do; revalidate rather than cache.
    return ok(extname(file), await readFile(file), 'no-cache', policy);
  };
}

/** The demo site backend's answer: an assertion for its member, or why it cannot sign one. */
async function demoAssertion(sso: DemoSiteSso | undefined): Promise<StaticFile> {
  const json = (statusCode: number, value: unknown): StaticFile => ({
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify(value)),
  });
  if (!sso)
    return json(503, { error: 'SSO_SECRET and SSO_AUDIENCE are not set: the demo site signs nobody in' });
  return json(200, { assertion: await mintDemoAssertion(sso) });
}

function ok(extension: string, body: Buffer, cacheControl: string, policy?: string): StaticFile {
  return {
    statusCode: 200,
    headers: {
      'content-type': contentTypes[extension] ?? 'application/octet-stream',
      'cache-control': cacheControl,
      'x-content-type-options': 'nosniff',
      ...(extension === '.html' ? { 'content-security-policy': policy ?? demoContentSecurityPolicy() } : {}),
    },
    body,
  };
}
