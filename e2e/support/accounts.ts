import { expect, test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import * as OTPAuth from 'otpauth';
import { startSmtpServer, type TestSmtpServer } from '../../tests/support/smtp.ts';
import { apiClient, uniqueEmail } from './api.ts';

// The account journeys of issue 16 read the e-mails the server sends (reset and confirmation
// links), so they run against a server of their own that delivers mail through SMTP, to a real
// SMTP server (nodemailer's `smtp-server`) started in the test worker. The shared e2e server
// stays without SMTP, as the Outbox journeys of other specs expect.

export const PASSWORD = 'correct horse battery staple';

type Api = Awaited<ReturnType<typeof apiClient>>;

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
 * The account specs' `test`: `mail` is the SMTP server that receives what the server sends,
 * and `baseURL` is the address of the server that sends to it (one of each per worker).
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
  baseURL: async ({ accountServerUrl }, use) => use(accountServerUrl),
});

/** The e-mail to `to` whose subject is `subject`, once it has arrived (the newest such). */
export async function mailTo(mail: TestSmtpServer, to: string, subject: string, after = 0) {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      () => {
        const matching = mail.received
          .slice(after)
          .filter((m) => m.envelope.to.includes(to) && m.mail.subject === subject);
        found = matching.at(-1)?.mail;
        return found !== undefined;
      },
      { message: `an e-mail "${subject}" to ${to}` },
    )
    .toBe(true);
  return found!;
}

/** The link of an account e-mail to one of the app's pages (`/reset-password?…`). */
export function linkIn(message: ParsedMail, baseURL: string, page: string): string {
  const escaped = `${baseURL}${page}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const link = new RegExp(`${escaped}\\?\\S+`).exec(message.text ?? '')?.[0];
  if (!link) throw new Error(`no link to ${page} in:\n${message.text}`);
  return link;
}

/**
 * A new person whose address is confirmed, with a supabase-js client signed in as them: signed
 * up through the API, then confirmed with the link of the e-mail the server sent.
 */
export async function confirmedPerson(baseURL: string, mail: TestSmtpServer, label: string) {
  const email = uniqueEmail(label);
  const api = await apiClient(baseURL);
  const signUp = await api.auth.signUp({ email, password: PASSWORD });
  if (signUp.error) throw signUp.error;
  expect(signUp.data.session, 'a sign-up waits for its confirmation').toBeNull();
  const link = new URL(
    linkIn(await mailTo(mail, email, 'Confirm your Steward account'), baseURL, '/confirm-email'),
  );
  const { error } = await api.auth.verifyOtp({
    token_hash: link.searchParams.get('token_hash')!,
    type: 'signup',
  });
  if (error) throw error;
  return { email, api };
}

/** A new organisation created through the API by a new confirmed person, its master admin. */
export async function organizationWithMasterAdmin(baseURL: string, mail: TestSmtpServer) {
  const masterAdmin = await confirmedPerson(baseURL, mail, 'master');
  const name = `Grace Chapel ${Date.now().toString(36)}`;
  const { data, error } = await masterAdmin.api.rpc('create_organization', { name });
  if (error) throw new Error(error.message);
  return { id: (data as unknown as { id: string }).id, name, masterAdmin };
}

/** A member of the organisation of `masterAdmin` with `role`, joined through an invitation. */
export async function invitedMember(
  baseURL: string,
  masterAdmin: { api: Api },
  role: 'user' | 'admin',
  fullName: string,
) {
  const email = uniqueEmail(role);
  const invite = await masterAdmin.api.rpc('invite_user', { email, role, full_name: fullName });
  if (invite.error) throw new Error(invite.error.message);
  const { token } = invite.data as unknown as { token: string };
  const api = await apiClient(baseURL);
  // The invitation proved the address: no confirmation e-mail, a session at once.
  const signUp = await api.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { invitation_token: token } },
  });
  if (signUp.error || !signUp.data.session) throw signUp.error ?? new Error('no session');
  const accepted = await api.rpc('accept_invitation', { token });
  if (accepted.error) throw new Error(accepted.error.message);
  return { email, api };
}

/** The codes of an authenticator app holding `secret` (the key the set-up screen shows). */
export function authenticator(secret: string) {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.replace(/\s+/g, '')) });
  return {
    /**
     * The code of the next 30-second step: a code is accepted once, and the one of the step a
     * factor was just verified with would be refused as a replay. The server accepts one step
     * of clock drift, so the next step's code is valid now.
     */
    nextCode: () => totp.generate({ timestamp: Date.now() + totp.period * 1000 }),
    currentCode: () => totp.generate(),
    /** A code the server refuses now: none of the three steps it accepts. */
    wrongCode: () => {
      const valid = [-1, 0, 1].map((step) =>
        totp.generate({ timestamp: Date.now() + step * totp.period * 1000 }),
      );
      return ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code))!;
    },
  };
}
