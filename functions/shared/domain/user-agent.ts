import UAParser from 'ua-parser-js';
import { limits } from './limits.js';

const OS_NAMES: Readonly<Record<string, string>> = { 'Mac OS': 'macOS' };
const OS_VERSIONS: Readonly<Record<string, string>> = { 'NT 11.0': '11' };

/** Describes a user agent the way Waline shows it: `{ browser: 'Chrome120.0', os: 'Windows 10' }`. */
export function describeUserAgent(ua: string): { browser: string; os: string } {
  const { browser, os } = new UAParser(ua.slice(0, limits.userAgentChars)).getResult();
  const browserVersion = (browser.version ?? '').split('.').slice(0, 2).join('.');
  const osName = os.name === undefined ? undefined : (OS_NAMES[os.name] ?? os.name);
  const osVersion = os.version === undefined ? undefined : (OS_VERSIONS[os.version] ?? os.version);
  return {
    browser: browser.name ? `${browser.name}${browserVersion}` : '',
    os: [osName, osVersion].filter(Boolean).join(' '),
  };
}
