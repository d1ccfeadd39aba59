import { describe, expect, it } from 'vitest';
import { describeUserAgent } from '../../../../../functions/shared/domain/user-agent.js';

const chromeWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const firefoxLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';

describe('describeUserAgent', () => {
  it('gives the browser with major.minor and the Windows version when the agent is Chrome on Windows 10', () => {
    const described = describeUserAgent(chromeWindows);

    expect(described).toEqual({ browser: 'Chrome120.0', os: 'Windows 10' });
  });

  it('gives Mobile Safari and iOS when the agent is Safari on an iPhone', () => {
    const ua =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
      'Version/17.1 Mobile/15E148 Safari/604.1';

    const described = describeUserAgent(ua);

    expect(described).toEqual({ browser: 'Mobile Safari17.1', os: 'iOS 17.1' });
  });

  it('gives Linux without a version when the agent is Firefox on Linux', () => {
    const described = describeUserAgent(firefoxLinux);

    expect(described).toEqual({ browser: 'Firefox120.0', os: 'Linux' });
  });

  it('names the system macOS when the agent is Safari on a Mac', () => {
    const ua =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
      'Version/17.1 Safari/605.1.15';

    const described = describeUserAgent(ua);

    expect(described).toEqual({ browser: 'Safari17.1', os: 'macOS 10.15.7' });
  });

  it('gives Edge when the agent is Chromium-based Edge', () => {
    const ua = `${chromeWindows} Edg/120.0.2210.91`;

    const described = describeUserAgent(ua);

    expect(described).toEqual({ browser: 'Edge120.0', os: 'Windows 10' });
  });

  it('gives Chrome and Android when the agent is Chrome on an Android phone', () => {
    const ua =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ' +
      'Chrome/120.0.6099.144 Mobile Safari/537.36';

    const described = describeUserAgent(ua);

    expect(described).toEqual({ browser: 'Chrome120.0', os: 'Android 14' });
  });

  it('gives Windows 11 when the agent says Windows NT 11.0', () => {
    const ua = chromeWindows.replace('Windows NT 10.0', 'Windows NT 11.0');

    const described = describeUserAgent(ua);

    expect(described).toEqual({ browser: 'Chrome120.0', os: 'Windows 11' });
  });

  it('gives empty strings when the agent is curl', () => {
    const described = describeUserAgent('curl/8.4.0');

    expect(described).toEqual({ browser: '', os: '' });
  });

  it('gives empty strings when the agent is empty', () => {
    const described = describeUserAgent('');

    expect(described).toEqual({ browser: '', os: '' });
  });

  it('parses only the first 1024 characters when the agent is longer', () => {
    // ua-parser-js keeps 500 characters itself, but only after dropping leading spaces.
    const ua = `${' '.repeat(1024)}${firefoxLinux}`;

    const described = describeUserAgent(ua);

    expect(described).toEqual({ browser: '', os: '' });
  });

  it('still reads the start when the agent is longer than 1024 characters', () => {
    const ua = `${firefoxLinux} ${'x'.repeat(2000)}`;

    const described = describeUserAgent(ua);

    expect(described).toEqual({ browser: 'Firefox120.0', os: 'Linux' });
  });
});
