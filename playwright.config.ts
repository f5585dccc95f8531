import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// End to end: Debian's Chromium against `npm start` on a temporary data directory.
const port = Number(process.env.E2E_PORT ?? 4173);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'steward-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // the same directory for the config's re-evaluation in workers

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
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
  webServer: {
    command: 'npx tsx scripts/start.ts',
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
      // Reminder runs are looked for every few seconds, so a test sees the day's digest.
      REMINDERS_CHECK_INTERVAL: '2s',
      // Every test signs up its own people from 127.0.0.1; GoTrue's per-address limits (30
      // sign-ups and sign-ins, 150 refreshes in 5 minutes) are tested in tests/backend.
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
    },
    stdout: 'pipe',
  },
});
