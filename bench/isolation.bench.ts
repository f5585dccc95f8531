/**
 * One organisation's worst requests against another's ordinary ones (issue 11).
 *
 * A Steward server runs in its own process, as `npm start` runs it. Organisation A (1,000
 * documents) sends, four at a time, the worst requests it can build: finding F1's nesting
 * (refused up front), the deepest nesting allowed over its documents, the widest embed allowed,
 * and bursts of 40 concurrent sign-ups from its address. Meanwhile organisation B reads its
 * documents (every read distinct, so each one runs in the database) and a browser fetches
 * `/config.json`, one request after another. The same two measures are taken with the server
 * idle first, in the same run.
 *
 * On PGlite always; on PostgreSQL too when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a
 * server (a fresh database is created there). Targets: `/config.json` p99 < 50 ms on both;
 * B's read p99 < 1 s on PGlite and within 2 × idle on PostgreSQL; every worst request ends
 * within its deadline (8 s for members).
 *
 * Further scenarios, each on a server of its own with the same two measures: the worst search
 * (issue 22, `support/worst-search.ts`) and Word and Excel previews rendered over and over
 * (issue 25, `support/office-previews.ts`). BENCH_ISOLATION_SCENARIOS (comma-separated, e.g.
 * "worst-search") runs only those named; all by default ("worst-requests", "worst-search",
 * "office-previews").
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { hostileFiles, hostileFilesPhase } from './support/hostile-files-phase.ts';
import { officePreviewsScenario } from './support/office-previews.ts';
import { freshPostgres } from './support/postgres.ts';
import { startSteward, type StewardProcess } from './support/steward-process.ts';
import { worstSearchScenario } from './support/worst-search.ts';

const PHASE_MS = Number(process.env.BENCH_ISOLATION_SECONDS ?? 20) * 1000;
const ATTACKERS = 4;
// Each worst request must end within its deadline (steward.toml [database]): a member's REST
// request 8 s, the server's own work for a sign-up 30 s; plus the time to restart PGlite's worker.
const MEMBER_DEADLINE_MS = 8000;
const SERVICE_DEADLINE_MS = 30_000;
const RESTART_MARGIN_MS = 2000;

export interface Member {
  client: SupabaseClient;
  token: string;
  organizationId: string;
}

function client(server: StewardProcess): SupabaseClient {
  return createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export async function newMember(server: StewardProcess, label: string): Promise<Member> {
  const member = client(server);
  const email = `${label}-${randomBytes(4).toString('hex')}@example.test`;
  const { data, error } = await member.auth.signUp({ email, password: 'correct horse battery' });
  if (error || !data.session) throw new Error(`sign-up failed: ${error?.message}`);
  const org = await member.rpc('create_organization', { name: `${label} Church` });
  if (org.error) throw new Error(`create_organization failed: ${org.error.message}`);
  const { data: profile } = await member
    .from('user_profiles')
    .select('organization_id')
    .eq('id', data.user!.id)
    .single<{ organization_id: string }>();
  return {
    client: member,
    token: data.session.access_token,
    organizationId: profile!.organization_id,
  };
}

async function addDocuments(member: Member, count: number): Promise<void> {
  for (let start = 0; start < count; start += 250) {
    const rows = Array.from({ length: Math.min(250, count - start) }, (_, i) => ({
      organization_id: member.organizationId,
      name: `Document ${start + i}.pdf`,
      category: 'Reports',
      size: 1000,
      file_path: `documents/${member.organizationId}/${start + i}.pdf`,
      tags: ['bench'],
      status: 'Active',
      description: 'A document of the isolation benchmark, with a line of description.',
    }));
    const { error } = await member.client.from('documents').insert(rows);
    if (error) throw new Error(`insert failed: ${error.message}`);
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `once` back to back until `stop` resolves; returns each call's milliseconds. */
async function sample(once: () => Promise<void>, stop: Promise<void>): Promise<number[]> {
  const times: number[] = [];
  let stopped = false;
  void stop.then(() => (stopped = true));
  while (!stopped) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return times;
}

export interface Measures {
  config: number[];
  read: number[];
  /** The victim's requests that did not succeed ("read: 503"): each one misses the target. */
  failures: string[];
}

/** Counts the victim's failed requests (a 503 of a full queue, a closed connection) by kind. */
export function failuresLine(failures: string[]): string {
  const counts = new Map<string, number>();
  for (const failure of failures) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  const listed = [...counts].map(([failure, n]) => `${n} × ${failure}`).join(', ');
  return `  the other organisation's failed requests: ${listed || 'none'}`;
}

/** The victim's two measures, taken until `stop`. */
export function measure(
  server: StewardProcess,
  victim: Member,
  stop: Promise<void>,
): Promise<Measures> {
  let n = 0;
  const failures: string[] = [];
  const expectOk = async (what: string, request: Promise<Response>) => {
    try {
      const response = await request;
      await response.arrayBuffer();
      if (!response.ok) failures.push(`${what}: ${response.status}`);
    } catch (error) {
      failures.push(`${what}: ${(error as Error).message}`);
    }
  };
  const read = sample(async () => {
    n += 1;
    await expectOk(
      'read',
      fetch(
        `${server.url}/rest/v1/documents?select=id,name,expiry_date&order=created_at.desc&limit=20&name=neq.distinct-${n}`,
        { headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${victim.token}` } },
      ),
    );
  }, stop);
  const config = sample(
    async () => expectOk('/config.json', fetch(`${server.url}/config.json`)),
    stop,
  );
  return Promise.all([config, read]).then(([c, r]) => ({ config: c, read: r, failures }));
}

interface WorstRequest {
  name: string;
  deadlineMs: number;
  /** The answer's status and how long the request took (the slowest one, for a burst). */
  send(): Promise<{ status: number; ms: number }>;
}

function worstRequests(server: StewardProcess, attacker: Member): WorstRequest[] {
  const rest = (query: string) => ({
    deadlineMs: MEMBER_DEADLINE_MS,
    send: async () => {
      const started = performance.now();
      const response = await fetch(`${server.url}/rest/v1/${query}`, {
        headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${attacker.token}` },
      });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - started };
    },
  });
  return [
    {
      name: 'F1 nesting',
      ...rest('documents?select=id,organizations(documents(id,organizations(documents(id))))'),
    },
    {
      name: 'deepest allowed nesting',
      ...rest('documents?select=*,organizations(*,documents(*,organizations(*)))'),
    },
    {
      name: 'widest allowed embed',
      ...rest('documents?select=*,organizations(*,documents(*))&limit=1'),
    },
    { name: 'all documents', ...rest('documents?select=*') },
    {
      name: '40 sign-ups at once (each)',
      deadlineMs: SERVICE_DEADLINE_MS,
      // Reports the slowest single sign-up of the burst: each is one request.
      async send() {
        const answers = await Promise.all(
          Array.from({ length: 40 }, async () => {
            const started = performance.now();
            const response = await fetch(`${server.url}/auth/v1/signup`, {
              method: 'POST',
              headers: { apikey: server.keys.anonKey, 'Content-Type': 'application/json' },
              body: JSON.stringify({
                email: `burst-${randomBytes(6).toString('hex')}@example.test`,
                password: 'correct horse battery',
              }),
            });
            await response.arrayBuffer();
            return { status: response.status, ms: performance.now() - started };
          }),
        );
        return {
          status: Math.max(...answers.map((a) => a.status)),
          ms: Math.max(...answers.map((a) => a.ms)),
        };
      },
    },
  ];
}

interface AttackReport {
  byName: Map<string, { count: number; statuses: Set<number>; maxMs: number; deadlineMs: number }>;
}

async function attack(requests: WorstRequest[], stop: Promise<void>): Promise<AttackReport> {
  const byName: AttackReport['byName'] = new Map();
  let next = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  await Promise.all(
    Array.from({ length: ATTACKERS }, async () => {
      while (!stopped) {
        const request = requests[next++ % requests.length]!;
        const started = performance.now();
        const { status, ms } = await request
          .send()
          .catch(() => ({ status: 0, ms: performance.now() - started }));
        const entry = byName.get(request.name) ?? {
          count: 0,
          statuses: new Set<number>(),
          maxMs: 0,
          deadlineMs: request.deadlineMs,
        };
        entry.count += 1;
        entry.statuses.add(status);
        entry.maxMs = Math.max(entry.maxMs, ms);
        byName.set(request.name, entry);
      }
    }),
  );
  return { byName };
}

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function scenario(
  label: string,
  env: Record<string, string>,
): Promise<{ lines: string[]; pass: boolean }> {
  // Before any request: making them holds this process for seconds (see hostileFiles).
  const files = await hostileFiles();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-isolation-'));
  const server = await startSteward({
    dataDir,
    jwtSecret: randomBytes(32).toString('hex'),
    env,
  });
  try {
    const attacker = await newMember(server, 'Attacker');
    const victim = await newMember(server, 'Victim');
    await addDocuments(attacker, 1000);
    await addDocuments(victim, 200);

    // Warm-up, then idle, then under attack.
    await measure(server, victim, after(2000));
    const idle = await measure(server, victim, after(PHASE_MS));
    const stop = after(PHASE_MS);
    const [busy, report] = await Promise.all([
      measure(server, victim, stop),
      attack(worstRequests(server, attacker), stop),
    ]);

    const p = (values: number[]) =>
      `p50 ${fmt(percentile(values, 50))}, p99 ${fmt(percentile(values, 99))} (${values.length} requests)`;
    const configP99 = percentile(busy.config, 99);
    const readIdleP99 = percentile(idle.read, 99);
    const readBusyP99 = percentile(busy.read, 99);
    const late = [...report.byName.entries()].filter(
      ([, r]) => r.maxMs > r.deadlineMs + RESTART_MARGIN_MS,
    );
    const readTarget = label === 'PGlite' ? readBusyP99 < 1000 : readBusyP99 <= 2 * readIdleP99;
    const pass = configP99 < 50 && readTarget && late.length === 0 && busy.failures.length === 0;
    const lines = [
      `${label}:`,
      `  /config.json, idle:          ${p(idle.config)}`,
      `  /config.json, under attack:  ${p(busy.config)}   (target p99 < 50 ms)`,
      `  other organisation's read, idle:          ${p(idle.read)}`,
      `  other organisation's read, under attack:  ${p(busy.read)}`,
      `  ratio of read p99 under attack / idle: ${(readBusyP99 / readIdleP99).toFixed(2)} ` +
        (label === 'PGlite' ? '(target: p99 < 1 s)' : '(target ≤ 2)'),
      failuresLine(busy.failures),
      `  worst requests (${ATTACKERS} at a time):`,
      ...[...report.byName.entries()].map(
        ([name, r]) =>
          `    ${name}: ${r.count} sent, answers ${[...r.statuses].sort().join('/')}, longest ${fmt(r.maxMs)} (deadline ${r.deadlineMs} ms)`,
      ),
      `  every worst request ended within its deadline: ${late.length === 0 ? 'yes' : `no (${late.map(([name]) => name).join(', ')})`}`,
      `  ${pass ? 'target met' : 'TARGET MISSED'}`,
    ];
    const hostile = await hostileFilesPhase({
      label,
      serverPid: server.child.pid!,
      attacker,
      victim,
      idle,
      measure: (stop) => measure(server, victim, stop),
      percentile,
      files,
    });
    return { lines: [...lines, ...hostile.lines], pass: pass && hostile.pass };
  } catch (error) {
    // Whether the server died or only refused one request is what matters next: say which.
    const ended = server.child.exitCode ?? server.child.signalCode;
    throw new Error(
      `${label}: ${(error as Error).message}; the server ${ended === null ? 'was still running' : `had ended (${ended})`}; its last output:\n${server.output().slice(-4000)}`,
      { cause: error },
    );
  } finally {
    await server.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Whether BENCH_ISOLATION_SCENARIOS asks for `name` (every scenario when unset). */
function wanted(name: string): boolean {
  const names = process.env.BENCH_ISOLATION_SCENARIOS;
  return !names || names.split(',').some((n) => n.trim() === name);
}

export async function run() {
  const lines: string[] = [];
  let pass = true;
  const add = (result: { lines: string[]; pass: boolean }) => {
    lines.push(...result.lines);
    pass &&= result.pass;
  };
  if (wanted('worst-requests')) add(await scenario('PGlite', {}));
  if (wanted('worst-search')) add(await worstSearchScenario('PGlite', {}, PHASE_MS));
  if (wanted('office-previews')) add(await officePreviewsScenario('PGlite', {}, PHASE_MS));
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const onPostgres = async (
      run: (env: Record<string, string>) => Promise<{ lines: string[]; pass: boolean }>,
    ) => {
      const database = await freshPostgres(adminUrl);
      try {
        add(await run({ DATABASE_URL: database.url }));
      } finally {
        await database.drop();
      }
    };
    if (wanted('worst-requests')) await onPostgres((env) => scenario('PostgreSQL', env));
    if (wanted('worst-search')) {
      await onPostgres((env) => worstSearchScenario('PostgreSQL', env, PHASE_MS));
    }
    if (wanted('office-previews')) {
      await onPostgres((env) => officePreviewsScenario('PostgreSQL', env, PHASE_MS));
    }
  } else {
    lines.push('PostgreSQL: skipped (set BENCH_DATABASE_URL to a server to measure it too)');
  }
  return { name: 'isolation', lines, pass };
}
