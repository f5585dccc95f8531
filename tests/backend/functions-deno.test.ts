import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptToken, importTokenKey } from '../../supabase/functions/oauth/crypto.ts';
import { ManualClock } from '../../server/jobs/clock.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { MockProvider, tokens } from './oauth-provider.ts';
import {
  addMember,
  configureProvider,
  newOrganization,
  ORIGIN,
  storedTokens,
  type Member,
} from './oauth-support.ts';

// The edge functions on Deno, as Supabase's edge runtime runs them. Hosted Supabase serves
// functions with supabase-edge-runtime 1.7x, "compatible with Deno v2.1.4" (its `served_by`),
// whose TypeScript is 5.6; the `deno` devDependency is pinned to that version. npm packages
// come from this repository's node_modules (`--node-modules-dir=manual`), at the versions each
// function's deno.json names (tests/backend/function-imports.test.ts), so nothing is downloaded.

const DENO_VERSION = '2.1.4';
const rootDir = path.resolve(import.meta.dirname, '../..');
const functionsDir = path.join(rootDir, 'supabase', 'functions');
// The `deno` package's own way to its binary (from the platform package; no download).
const denoBinary = (
  createRequire(import.meta.url)('deno/install_api.cjs') as { runInstall(): string }
).runInstall();

/** The environment Deno runs in: no settings of this process leak into the function. */
function denoEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: os.tmpdir(),
    DENO_DIR: path.join(os.tmpdir(), `steward-deno-${DENO_VERSION}`),
    DENO_NO_UPDATE_CHECK: '1',
    NO_COLOR: '1',
    ...extra,
  };
}

function runDeno(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(denoBinary, args, { cwd: rootDir, env: denoEnv() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * Serves function `name` under Deno (tests/deno/serve-function.ts), as Supabase's edge runtime
 * would, with `env` as its environment: its address, and how to stop it.
 */
async function serveOnDeno(
  name: string,
  env: Record<string, string>,
): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    denoBinary,
    [
      'run',
      '--node-modules-dir=manual',
      '--config',
      path.join(functionsDir, name, 'deno.json'),
      '--allow-net=127.0.0.1',
      '--allow-env',
      `--allow-read=${rootDir}`,
      path.join(rootDir, 'tests', 'deno', 'serve-function.ts'),
      name,
    ],
    { cwd: rootDir, env: denoEnv(env) },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`deno exited with ${code}:\n${output}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/** Every served function: a folder not starting with `_` or `.`. */
async function functionNames(): Promise<string[]> {
  const entries = await readdir(functionsDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && !/^[_.]/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

describe('edge functions on Deno', () => {
  it(`runs Deno ${DENO_VERSION}, the version of Supabase's edge runtime`, async () => {
    const { code, output } = await runDeno(['--version']);
    expect(code).toBe(0);
    expect(output).toMatch(new RegExp(`^deno ${DENO_VERSION.replace(/\./g, '\\.')} `));
  });

  it('type-checks every function with its own deno.json', async () => {
    const names = await functionNames();
    expect(names).toContain('oauth');
    const results = await Promise.all(
      names.map(async (name) => {
        const dir = path.join(functionsDir, name);
        const { code, output } = await runDeno([
          'check',
          '--node-modules-dir=manual',
          '--config',
          path.join(dir, 'deno.json'),
          path.join(dir, 'index.ts'),
        ]);
        return { name, code, errors: code === 0 ? '' : output };
      }),
    );
    expect(results).toEqual(names.map((name) => ({ name, code: 0, errors: '' })));
  });
});

describe('the oauth handler served by Deno against the embedded server', () => {
  const SECRET = 'deno-client-secret-4f1a';
  const tokenKey = randomBytes(32).toString('base64url');
  let server: TestServer;
  let provider: MockProvider;
  let member: Member;
  let deno: { url: string; stop(): Promise<void> } | undefined;
  let functionUrl = '';

  beforeAll(async () => {
    provider = await new MockProvider().start();
    server = await startTestServer({ env: { AUTH_ADDITIONAL_REDIRECT_URLS: ORIGIN } });
    const org = await newOrganization(server);
    member = await addMember(server, org);
    await configureProvider(org, 'slack', provider, SECRET);

    // What Supabase's edge runtime and `supabase secrets set` give the function on a project.
    deno = await serveOnDeno('oauth', {
      SUPABASE_URL: server.url,
      SUPABASE_ANON_KEY: server.keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: server.keys.serviceRoleKey,
      OAUTH_TOKEN_KEY: tokenKey,
      SITE_URL: ORIGIN,
      ADDITIONAL_REDIRECT_URLS: '',
      OAUTH_ALLOWED_HOSTS: new URL(provider.url).host,
    });
    functionUrl = deno.url;
  });
  afterAll(async () => {
    await deno?.stop();
    await Promise.all([server?.close(), provider?.stop()]);
  });

  /** A request as supabase-js `functions.invoke` sends it, past the gateway. */
  async function call(
    body: Record<string, unknown>,
    token: string | null = member.token,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(functionUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        apikey: server.keys.anonKey,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('connects a provider and hands out its token, storing it encrypted with the key', async () => {
    provider.answer = () => tokens({ access_token: 'AT-deno', refresh_token: 'RT-deno' });
    const started = await call({ action: 'start', providerId: 'slack', origin: ORIGIN });
    expect(started.status).toBe(200);
    expect(new URL(started.body.url as string).searchParams.get('redirect_uri')).toBe(
      `${ORIGIN}/oauth/callback/slack`,
    );
    const completed = await call({
      action: 'complete',
      providerId: 'slack',
      code: 'code-deno',
      state: started.body.state,
    });
    expect(completed.status).toBe(200);
    const { id } = completed.body.connection as { id: string };

    // Sealed by WebCrypto on Deno, opened by WebCrypto on Node: one format on both runtimes.
    const stored = await storedTokens(server, id);
    expect(
      await decryptToken(
        await importTokenKey(tokenKey),
        stored!.refresh_token!,
        `oauth_connection_tokens:${id}:refresh_token`,
      ),
    ).toBe('RT-deno');
    expect(await call({ action: 'token', providerId: 'slack' })).toMatchObject({
      status: 200,
      body: { access_token: 'AT-deno' },
    });
  });

  it('answers a caller without a session and a malformed body with its errors', async () => {
    expect(await call({ action: 'token', providerId: 'slack' }, server.keys.anonKey)).toEqual({
      status: 401,
      body: { error: 'User not authenticated' },
    });
    const response = await fetch(functionUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Request body must be JSON' });
  });
});

describe('the mail-worker handler served by Deno against the embedded server', () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let deno: { url: string; stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The server records messages for SMTP delivery; its own job runner stays idle (an hour's
    // poll, a clock before every time the function runs at), so Deno delivers them.
    server = await startTestServer({
      clock: new ManualClock('2026-01-01T00:00:00Z'),
      env: {
        JOB_POLL_INTERVAL: '1h',
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: 'office@deno.example.org',
      },
    });
    deno = await serveOnDeno('mail-worker', {
      SUPABASE_URL: server.url,
      SUPABASE_ANON_KEY: server.keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: server.keys.serviceRoleKey,
      SITE_URL: ORIGIN,
      SMTP_URL: smtp.url,
      SMTP_ADMIN_EMAIL: 'office@deno.example.org',
    });
  });
  afterAll(async () => {
    await deno?.stop();
    await server?.close();
    await smtp?.close();
  });

  it('runs the reminder pass and sends the digest through SMTP with nodemailer on Deno', async () => {
    const { organizationId } = await newOrganization(server);
    const responsible = (
      await server.db
        .serverWork()
        .query<{ id: string; email: string }>(
          `select id, email from public.user_profiles where organization_id = $1`,
          [organizationId],
        )
    ).rows[0]!;
    await server.db.serverWork().query(
      `insert into public.documents (organization_id, name, category, file_path, expiry_date,
                                     responsible_id)
       values ($1, 'Boiler certificate', 'Legal', $2, '2027-06-08', $3)`,
      [organizationId, `documents/${organizationId}/boiler.pdf`, responsible.id],
    );
    const response = await fetch(deno!.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.keys.serviceRoleKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ now: '2027-06-01T09:00:00Z' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ reminder_runs: 1, digests: 1, sent: 1 });
    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message!.envelope.to).toEqual([responsible.email]);
    expect(message!.mail.text).toContain('Boiler certificate: expires on Jun 08, 2027 (in 7 days)');

    const refused = await fetch(deno!.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.keys.anonKey}` },
    });
    expect(refused.status).toBe(403);
    await refused.body?.cancel();
  });
});
