import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from '../../server/node-flags.ts';
import { startSmtpServer } from '../../tests/support/smtp.ts';

// The account journeys of issue 16 read the e-mails the server sends (reset and confirmation
// links), so they run against a server of their own that delivers mail through SMTP, to a real
// SMTP server (nodemailer's `smtp-server`). The shared e2e server stays without SMTP, as the
// Outbox journeys of other specs expect.
//
// One account server for the run, started by the global set-up (in Playwright's runner, once the
// shared server answers) and not waited for there: it starts while the first specs run, and a
// worker waits for it only if it reaches an account test first. Each worker used to start its
// own when it reached the account specs, and both reached them together, so both browsers
// idled through two starts at once (about 20 s a worker under load). Its SMTP server runs in
// the runner too, and writes every message it accepts to a mailbox directory, one file each,
// before the sender is told it was accepted; the workers read them from there. The account
// tests each sign up people of their own (`uniqueEmail`) and read only the messages to them,
// so the two workers' tests share the server as they share the other one.

/** Set by the global set-up for the workers: the account server's address. */
const URL_VARIABLE = 'E2E_ACCOUNT_SERVER_URL';
/** Set by the global set-up for the workers: where the received messages are written. */
const MAILBOX_VARIABLE = 'E2E_ACCOUNT_MAILBOX';
/** In the mailbox's parent: the server's exit and last output, written if it stops early. */
const STOPPED_FILE = 'account-server-stopped.txt';

/** What a test reads of a message the account server sent. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  mail: { subject?: string; text?: string; html?: string };
}

/** Every message the account server has sent so far, in the order they were accepted. */
export interface Mailbox {
  readonly received: ReceivedMail[];
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Playwright's global set-up: the SMTP server, then `npm start` on a temporary data directory
 * sending mail to it, not waited for. Returns the global teardown.
 */
export default async function startAccountServer(): Promise<() => Promise<void>> {
  // On the RAM file system when there is one, as the shared e2e server's (playwright.config.ts).
  const temporary = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const runDir = mkdtempSync(path.join(temporary, 'steward-e2e-accounts-'));
  const dataDir = path.join(runDir, 'data');
  const mailbox = path.join(runDir, 'mail');
  mkdirSync(mailbox);
  let count = 0;
  const smtp = await startSmtpServer({
    onReceived({ envelope, mail }) {
      count += 1;
      const name = `${String(count).padStart(6, '0')}.json`;
      const message: ReceivedMail = {
        envelope,
        mail: {
          subject: mail.subject,
          text: mail.text,
          html: typeof mail.html === 'string' ? mail.html : undefined,
        },
      };
      // Whole or not at all: a worker may list the directory at any moment.
      writeFileSync(path.join(mailbox, `.${name}`), JSON.stringify(message));
      renameSync(path.join(mailbox, `.${name}`), path.join(mailbox, name));
    },
  });
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // One process (tsx as Node's loader, not the npx and tsx wrappers), so that stopping it stops
  // the server.
  const child = spawn(
    process.execPath,
    [...serverNodeFlags, '--import', 'tsx', 'scripts/start.ts'],
    {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_REQUESTS: '0',
        AUTH_SITE_URL: url,
        SMTP_URL: smtp.url,
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
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      if (!stopping) {
        writeFileSync(
          path.join(runDir, STOPPED_FILE),
          `the account server stopped (${code ?? signal}):\n${output}`,
        );
      }
      resolve();
    });
  });
  // The directories go with the runner however it ends (as the shared server's).
  process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
  process.env[URL_VARIABLE] = url;
  process.env[MAILBOX_VARIABLE] = mailbox;
  return async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await smtp.close();
    rmSync(runDir, { recursive: true, force: true });
  };
}

let ready: Promise<string> | undefined;

/** The account server's address, once it answers (in a worker; waits at most 170 s). */
export function accountServerUrl(): Promise<string> {
  ready ??= (async () => {
    const url = process.env[URL_VARIABLE];
    const mailbox = process.env[MAILBOX_VARIABLE];
    if (!url || !mailbox) throw new Error(`${URL_VARIABLE} is not set: no global set-up ran`);
    const stopped = path.join(path.dirname(mailbox), STOPPED_FILE);
    const deadline = Date.now() + 170_000;
    for (;;) {
      if (existsSync(stopped)) throw new Error(readFileSync(stopped, 'utf8'));
      try {
        if ((await fetch(`${url}/config.json`)).ok) return url;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error('the account server did not start in 170 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return ready;
}

const read = new Map<string, ReceivedMail>();

/** The messages the account server has sent, as the global set-up's SMTP server wrote them. */
export function accountMailbox(): Mailbox {
  const mailbox = process.env[MAILBOX_VARIABLE];
  if (!mailbox) throw new Error(`${MAILBOX_VARIABLE} is not set: no global set-up ran`);
  return {
    get received() {
      return readdirSync(mailbox)
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .sort()
        .map((name) => {
          let message = read.get(name);
          if (!message) {
            message = JSON.parse(readFileSync(path.join(mailbox, name), 'utf8')) as ReceivedMail;
            read.set(name, message);
          }
          return message;
        });
    },
  };
}
