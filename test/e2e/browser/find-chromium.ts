import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * The system Chromium for browser tests (puppeteer-core downloads no browser). CHROMIUM_PATH overrides.
 * Missing is a failure with the fix in the message, not a skip: the docs page must be proven in a browser.
 */
export function findChromium(): string {
  const override = process.env['CHROMIUM_PATH'];
  const found = override ? [override] : CANDIDATES.filter((path) => existsSync(path));
  const path = found[0];
  if (!path || !existsSync(path)) {
    throw new Error(
      'Chromium is needed for the /docs browser test: install it with `sudo apt-get install chromium` (Debian/Ubuntu), ' +
        'or set CHROMIUM_PATH to a Chrome/Chromium binary. .ci/run installs it when missing.',
    );
  }
  return path;
}
