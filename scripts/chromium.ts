/** Headless Chromium for the browser tests and the README screenshot: Debian's package, driven by playwright-core. */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, which .ci/run installs when it is missing. Never a browser downloaded by Playwright. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Starts headless Chromium (we run as root, hence no sandbox), with everything that phones home turned off. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `No Chromium at ${chromiumPath}: install Debian's package (apt-get install chromium), or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
