import { defineConfig } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from './server/node-flags.ts';

// End to end: Debian's Chromium against `npm start` on a temporary data directory, on the RAM
// file system when there is one (a new database writes some 1,200 files; on this machine's disk
// the server took 25-37 s to start instead of 19), removed when the run ends.
const port = Number(process.env.E2E_PORT ?? 4173);
let dataDir = process.env.E2E_DATA_DIR;
if (!dataDir) {
  const temporary = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const created = mkdtempSync(path.join(temporary, 'steward-e2e-'));
  process.on('exit', () => rmSync(created, { recursive: true, force: true }));
  dataDir = created;
}
process.env.E2E_DATA_DIR = dataDir; // the same directory for the config's re-evaluation in workers

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two browsers at once. A file's tests run in order in one worker unless the file asks for
  // `parallel` mode (the accessibility and mobile specs, whose tests each open their own page);
  // no test is longer than a few screens, so none needs the machine to itself.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  outputDir: 'test-results',
  // Starts the account specs' server with its SMTP server, once the shared server answers; not
  // waited for (e2e/support/account-server.ts).
  globalSetup: './e2e/support/account-server.ts',
  webServer: {
    // Node with tsx as its loader, not the npx and tsx wrappers: one process instead of four, and
    // about a second less before the first test (npx tsx 2.1-3.0 s against 0.9-1.0 s of wall to
    // run an empty script, load 17).
    command: `node ${serverNodeFlags.join(' ')} --import tsx scripts/start.ts`,
    url: `http://localhost:${port}/config.json`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_REQUESTS: '0',
      // The installation's own address: OAuth providers send the user back there.
      AUTH_SITE_URL: `http://localhost:${port}`,
      // The local authorisation server of e2e/oauth.spec.ts, whose addresses name localhost.
      OAUTH_ALLOWED_HOSTS: 'localhost',
      // The test SMTP servers e2e/settings.spec.ts starts, as an organisation's own sender.
      ORGANIZATION_SMTP_ALLOWED_HOSTS: '127.0.0.1',
      // Reminder runs are looked for every few seconds, so a test sees the day's digest.
      REMINDERS_CHECK_INTERVAL: '2s',
      // bcrypt at GoTrue's cost of 10 takes ~100 ms of CPU per hash in JavaScript, and every
      // sign-up and sign-in of the suite hashes; sign-in is still checked against a real hash.
      // The product's cost is tested in tests/backend (auth.test.ts).
      AUTH_BCRYPT_COST: '4',
      // Every test signs up its own people from 127.0.0.1; GoTrue's per-address limits (30
      // sign-ups and sign-ins, 150 refreshes in 5 minutes) are tested in tests/backend.
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
    },
    stdout: 'pipe',
  },
});
