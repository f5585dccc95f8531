import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startSmtpServer, type TestSmtpServer } from '../../tests/support/smtp.ts';

export { expect } from '@playwright/test';

// The account journeys of issue 16 read the e-mails the server sends (reset and confirmation
// links), so they run against a server of their own that delivers mail through SMTP, to a real
// SMTP server (nodemailer's `smtp-server`) started in the test worker. The shared e2e server
// stays without SMTP, as the Outbox journeys of other specs expect.

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the account server stopped (${child.exitCode}):\n${output()}`);
    }
    try {
      if ((await fetch(`${url}/config.json`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the account server did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** `npm start` on a temporary data directory, sending mail to `smtpUrl`. */
async function startAccountServer(smtpUrl: string) {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // On the RAM file system when there is one, as the shared e2e server's (playwright.config.ts).
  const temporary = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const dataDir = mkdtempSync(path.join(temporary, 'steward-e2e-accounts-'));
  // One process (tsx as Node's loader, not the npx and tsx wrappers), so that stopping it stops
  // the server.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_REQUESTS: '0',
      AUTH_SITE_URL: url,
      SMTP_URL: smtpUrl,
      SMTP_ADMIN_EMAIL: 'office@steward.example',
      // Every test signs up and mails its own people from 127.0.0.1, a confirmation and then a
      // reset link to one address within the minute GoTrue makes an address wait between two
      // e-mails; these limits are tested in tests/backend.
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
      AUTH_RATE_LIMIT_EMAIL_SENT: '100000',
      // As the shared e2e server (playwright.config.ts): cheaper hashes, real sign-ins.
      AUTH_BCRYPT_COST: '4',
      AUTH_EMAIL_REQUESTS_PER_ADDRESS: '100000',
      AUTH_EMAIL_MAX_FREQUENCY: '1ms',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/**
 * Every spec's `test`. Playwright gives tests whose worker-scoped fixtures differ workers of
 * their own: when the account specs alone declared `mail` and `accountServerUrl`, the run
 * stopped both workers and their browsers and started two new ones for the account specs,
 * which always ran last. Declared here for all, they are set up only in a worker that runs a
 * test using them (support/accounts.ts), which then keeps them to its end; the account specs
 * take their place in the order of the files.
 */
export const test = base.extend<object, { mail: TestSmtpServer; accountServerUrl: string }>({
  mail: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; none here
    async ({}, use) => {
      const server = await startSmtpServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  accountServerUrl: [
    async ({ mail }, use) => {
      const server = await startAccountServer(mail.url);
      await use(server.url);
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});
