/**
 * Where a thread's CPU went, from a V8 CPU profile (`BENCH_CPU_PROF_DIR`, see child.ts): the
 * samples between the first and the last one under `--mark` (default `parseQuery`, so the
 * steady state of a REST bench, without start-up and seeding), each given to the nearest frame,
 * leaf first, that belongs to one of the categories below, as shares of the thread's busy time.
 *
 *   npx tsx bench/support/cpu-profile-summary.ts <file.cpuprofile> [--mark functionName]
 *
 * Shares, not times: on a shared machine a sample also counts the time the thread waited for a
 * core, and a thread is most often preempted on its way out of a system call, so `writev`'s
 * share overstates what the socket costs (compare the process's system time from /proc).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

type Test = (functionName: string, url: string) => boolean;

const REST = (files: string) => new RegExp(`server/rest/(${files})`);

/** First match wins, from the sampled frame up its callers. */
export const CATEGORIES: [string, Test][] = [
  ['idle', (f) => f === '(idle)'],
  ['GC', (f) => f === '(garbage collector)'],
  ['socket writes (`writev`)', (f) => f === 'writev'],
  ['messages to the PGlite worker (`postMessage`)', (f) => f === 'postMessage'],
  ['native, outside JavaScript (`(program)`)', (f) => f === '(program)'],
  ['fair queue', (_, u) => u.includes('server/db/fair-queue')],
  [
    'REST parsing (query, Prefer, Accept)',
    (_, u) => REST('query-params|parse-|preferences|negotiate|limits|range-header').test(u),
  ],
  [
    'REST planning and SQL text',
    (f, u) =>
      REST('plan-read|sql-|cacheable-read|relationships|casts').test(u) ||
      f === 'prepareRead' ||
      f === 'planWithRefresh',
  ],
  [
    'REST answer (status, headers, body bytes)',
    (f, u) =>
      REST('respond').test(u) ||
      f === 'readResponse' ||
      f === 'encodeColumn' ||
      f === 'settleBatch',
  ],
  ['the caller’s settings statement', (_, u) => /server\/http\/(caller|request-headers)/.test(u)],
  [
    'PostgreSQL driver (pg, pg-protocol, pg-pool, message group)',
    (_, u) =>
      /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//.test(u) ||
      /server\/db\/(message-group|prepared-names|postgres)/.test(u),
  ],
  ['PGlite client (main thread)', (_, u) => /server\/db\/(pglite-|worker-)/.test(u)],
  ['REST route (routes, execute, read cache)', (_, u) => u.includes('server/rest/')],
  [
    'API middleware (credentials, scope, client address, CORS)',
    (_, u) =>
      u.includes('server/http/') ||
      u.includes('server/db/request-scope') ||
      /node_modules\/(proxy-addr|forwarded|ipaddr\.js)\//.test(u),
  ],
  ['Hono and @hono/node-server', (_, u) => /node_modules\/(hono|@hono\/node-server)\//.test(u)],
  [
    'Node’s HTTP server and streams',
    (_, u) => /node:_http|node:net|node:internal\/(streams|stream_base|http)/.test(u),
  ],
  [
    'promises, microtasks, async hooks',
    (f, u) => f === 'runMicrotasks' || /async_hooks|task_queues/.test(u),
  ],
];

/** Each category's share of the busy samples (idle left out), largest first. */
export function summarize(profile: Profile, mark = 'parseQuery'): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const marks = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === mark).map((node) => node.id),
  );
  const isMarked = (id: number) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (marks.has(at)) return true;
    }
    return false;
  };
  let first = -1;
  let last = -1;
  profile.samples.forEach((id, index) => {
    if (!isMarked(id)) return;
    if (first === -1) first = index;
    last = index;
  });
  const totals = new Map<string, number>();
  for (let index = first; first !== -1 && index <= last; index += 1) {
    let category = 'other';
    for (
      let at: number | undefined = profile.samples[index];
      at !== undefined;
      at = parent.get(at)
    ) {
      const { functionName, url } = byId.get(at)!.callFrame;
      const found = CATEGORIES.find(([, test]) => test(functionName, url));
      if (found) {
        category = found[0];
        break;
      }
    }
    totals.set(category, (totals.get(category) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  totals.delete('idle');
  const busy = [...totals.values()].reduce((sum, time) => sum + time, 0);
  return [...totals]
    .map(([category, time]): [string, number] => [category, busy ? time / busy : 0])
    .sort((a, b) => b[1] - a[1]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, flag, mark] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpu-profile-summary.ts <file.cpuprofile> [--mark name]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const shares = summarize(profile, flag === '--mark' && mark ? mark : undefined);
  console.log('| where | share of the busy samples |\n| --- | --- |');
  for (const [category, share] of shares) {
    console.log(`| ${category} | ${(share * 100).toFixed(1)} % |`);
  }
}
