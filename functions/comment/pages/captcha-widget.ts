import type { Config } from '../../shared/config.js';
import type { CaptchaField } from '../../shared/spam/captcha.js';
import { embedJson } from './page-shell.js';

/** The captcha a page shows: the body field its token goes in, and the provider's public site key. */
export interface CaptchaWidget {
  readonly field: CaptchaField;
  readonly key: string;
}

/** The captcha of the pages: Turnstile's site key first, as Waline reads the secrets, else reCAPTCHA v3's, else none. */
export function captchaWidgetOf(
  config: Pick<Config, 'TURNSTILE_KEY' | 'RECAPTCHA_V3_KEY'>,
): CaptchaWidget | undefined {
  if (config.TURNSTILE_KEY) return { field: 'turnstile', key: config.TURNSTILE_KEY };
  if (config.RECAPTCHA_V3_KEY) return { field: 'recaptchaV3', key: config.RECAPTCHA_V3_KEY };
  return undefined;
}

/**
 * The provider's script, and what the page's Content-Security-Policy must let in for it: its scripts and its
 * frames (Turnstile's from challenges.cloudflare.com; reCAPTCHA's from recaptcha.net, which Waline's widget
 * uses too, and its code from www.gstatic.com). A page without a captcha allows none of them.
 */
export function captchaSources(widget: CaptchaWidget): {
  readonly script: string;
  readonly scriptSources: readonly string[];
  readonly frameSources: readonly string[];
} {
  if (widget.field === 'turnstile') {
    return {
      script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
      scriptSources: ['https://challenges.cloudflare.com'],
      frameSources: ['https://challenges.cloudflare.com'],
    };
  }
  return {
    script: `https://recaptcha.net/recaptcha/api.js?render=${encodeURIComponent(widget.key)}`,
    scriptSources: [
      'https://recaptcha.net',
      'https://www.recaptcha.net',
      'https://www.gstatic.com/recaptcha/',
    ],
    frameSources: ['https://recaptcha.net', 'https://www.recaptcha.net'],
  };
}

/** The element a page embeds its captcha in (or `null`), for {@link captchaTokenScript} to read. */
export function captchaSettingsElement(widget: CaptchaWidget | undefined): string {
  return `<script type="application/json" id="captcha-settings">${embedJson(widget ?? null)}</script>`;
}

/**
 * Browser code that defines `captchaToken()`: a fresh token for the action `social` under its field
 * (`{ turnstile: … }` or `{ recaptchaV3: … }`), `{}` when the page has no captcha, or undefined while the
 * visitor has not solved Turnstile's challenge yet. A token passes once: Turnstile's widget is reset after each use.
 */
export const captchaTokenScript = String.raw`
const captcha = JSON.parse(document.getElementById('captcha-settings').textContent);
let turnstileToken;
if (captcha && captcha.field === 'turnstile') {
  // The provider's script is async: it has run by the time the page's load event fires.
  addEventListener('load', () => {
    window.turnstile.render('#captcha', {
      sitekey: captcha.key, action: 'social',
      callback: (token) => { turnstileToken = token; },
      'expired-callback': () => { turnstileToken = undefined; },
    });
  });
}
async function captchaToken() {
  if (!captcha) return {};
  if (captcha.field === 'turnstile') {
    const token = turnstileToken;
    if (!token) return undefined;
    turnstileToken = undefined;
    window.turnstile.reset('#captcha');
    return { turnstile: token };
  }
  await new Promise((ready) => window.grecaptcha.ready(ready));
  return { recaptchaV3: await window.grecaptcha.execute(captcha.key, { action: 'social' }) };
}
`;
