/**
 * What row-level security costs on the hottest query: a member lists the 50 newest documents of
 * their organisation. 10 organisations × 10,000 documents. The same query runs
 *   - through RLS: as `authenticated` with the member's JWT claims, no filter of its own;
 *   - without RLS: as `service_role` (bypasses RLS) with an explicit organisation filter;
 * both inside the same per-request transaction PostgREST uses (role and claims set first), so
 * the ratio isolates the policies. Target: ratio of medians ≤ 1.5. The plans are checked to use
 * the (organization_id, created_at desc) index.
 *
 * Issue 23: a quarter of each organisation's documents are in HR, a restricted category that
 * the measured member (a user in no group) may not view, so the RLS query also leaves them out
 * (`category <> all (hidden)`), and the explicit filter does the same.
 *
 * `npx tsx bench/rls-documents.bench.ts` runs it alone; `run()` is what bench/run.ts calls.
 * PostgreSQL instead of PGlite when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Database, Queryable } from '../server/db/database.ts';
import { openPglite } from '../server/db/pglite.ts';
import { openPostgres } from '../server/db/postgres.ts';
import { asCaller, type Caller } from '../server/http/caller.ts';
import { freshPostgresDatabase, pgliteTemplate } from '../tests/support/template.ts';

export interface RlsDocumentsOptions {
  organizations?: number;
  documentsPerOrganization?: number;
  iterations?: number;
  warmup?: number;
}

export interface RlsDocumentsResult {
  name: string;
  backend: Database['kind'];
  organizations: number;
  documentsPerOrganization: number;
  iterations: number;
  /** Milliseconds per query (transaction included). */
  withRls: { median: number; p95: number };
  withoutRls: { median: number; p95: number };
  ratio: number;
  target: number;
  indexUsed: { withRls: boolean; withoutRls: boolean };
  /** The ratio meets the target and both plans use the index. */
  pass: boolean;
  plans: { withRls: string; withoutRls: string };
  /** Printable lines for the bench report. */
  lines: string[];
}

const INDEX = 'documents_organization_id_created_at_idx';
const RLS_QUERY = 'select * from public.documents order by created_at desc limit 50';
const FILTERED_QUERY =
  'select * from public.documents where organization_id = $1 and category <> all ($2::text[]) order by created_at desc limit 50';
/** The category restricted in every organisation, holding a quarter of its documents. */
const RESTRICTED = ['HR'];

async function openBenchDatabase(): Promise<{ db: Database; close(): Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (url) {
    const fresh = await freshPostgresDatabase(url, { schema: 'app' });
    const db = await openPostgres(fresh.url);
    return { db, close: async () => (await db.close(), await fresh.drop()) };
  }
  const dump = await readFile(await pgliteTemplate('app'));
  const db = await openPglite({ loadDataDir: new Blob([dump]) });
  return { db, close: () => db.close() };
}

/** One member per organisation, each organisation with `perOrganization` documents. */
async function seed(db: Queryable, organizations: number, perOrganization: number) {
  const members: { userId: string; organizationId: string }[] = [];
  for (let i = 0; i < organizations; i++) {
    const userId = randomUUID();
    const organizationId = randomUUID();
    await db.query(
      `insert into auth.users (id, email, aud, role, created_at) values ($1, $2, 'authenticated', 'authenticated', now())`,
      [userId, `member${i}@bench.test`],
    );
    await db.query('insert into public.organizations (id, name, created_by) values ($1, $2, $3)', [
      organizationId,
      `Organisation ${i}`,
      userId,
    ]);
    await db.query(
      `update public.user_profiles set organization_id = $2, role = 'user' where id = $1`,
      [userId, organizationId],
    );
    await db.query(
      `insert into public.documents
         (organization_id, name, category, expiry_date, size, file_path, tags, uploaded_by, created_at)
       select $1::uuid, 'Document ' || g || '.pdf',
              (array['HR','Accounting','Legal','Reports'])[1 + g % 4],
              current_date + (g % 400) - 100, 1000 + g,
              'documents/' || $1::text || '/' || g || '-bench.pdf', array['tag' || (g % 7)], $2::uuid,
              now() - make_interval(secs => g * 37 + $3::int)
       from generate_series(1, $4::int) g`,
      [organizationId, userId, i, perOrganization],
    );
    await db.query(
      `update public.document_categories set restricted = true
        where organization_id = $1 and name = any ($2::text[])`,
      [organizationId, RESTRICTED],
    );
    members.push({ userId, organizationId });
  }
  await db.exec('analyze');
  return members;
}

const member = (userId: string): Caller => ({
  role: 'authenticated',
  claims: { sub: userId, role: 'authenticated', aud: 'authenticated' },
  token: null,
});
const serviceRole: Caller = { role: 'service_role', claims: { role: 'service_role' }, token: null };

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length));
  return sorted[index]!;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

async function plan(db: Database, caller: Caller, sql: string, params: unknown[]) {
  const { rows } = await asCaller(db.serverWork(), caller, (tx) =>
    tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params),
  );
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** Seeds a fresh database, measures both queries alternately, and returns the figures. */
export async function run(options: RlsDocumentsOptions = {}): Promise<RlsDocumentsResult> {
  const organizations = options.organizations ?? 10;
  const perOrganization = options.documentsPerOrganization ?? 10_000;
  const iterations = options.iterations ?? 400;
  const warmup = options.warmup ?? 50;
  const { db, close } = await openBenchDatabase();
  try {
    const members = await seed(db.serverWork(), organizations, perOrganization);
    const target = members[Math.floor(members.length / 2)]!;
    const caller = member(target.userId);

    const withRls = async () => {
      const { rows } = await asCaller(db.serverWork(), caller, (tx) => tx.query(RLS_QUERY));
      return rows;
    };
    const withoutRls = async () => {
      const { rows } = await asCaller(db.serverWork(), serviceRole, (tx) =>
        tx.query(FILTERED_QUERY, [target.organizationId, RESTRICTED]),
      );
      return rows;
    };

    // Both must return the same 50 rows, or the comparison means nothing.
    const [a, b] = [await withRls(), await withoutRls()];
    if (a.length !== 50 || JSON.stringify(a) !== JSON.stringify(b)) {
      throw new Error('the RLS query and the filtered query returned different rows');
    }

    const times = { withRls: [] as number[], withoutRls: [] as number[] };
    for (let i = 0; i < warmup + iterations; i++) {
      // Alternate the order so that neither query always runs on a warmer cache.
      const order =
        i % 2 === 0 ? (['withRls', 'withoutRls'] as const) : (['withoutRls', 'withRls'] as const);
      for (const which of order) {
        const started = performance.now();
        await (which === 'withRls' ? withRls() : withoutRls());
        if (i >= warmup) times[which].push(performance.now() - started);
      }
    }
    const stats = (values: number[]) => {
      const sorted = [...values].sort((x, y) => x - y);
      return { median: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) };
    };
    const rls = stats(times.withRls);
    const plain = stats(times.withoutRls);
    const plans = {
      withRls: await plan(db, caller, RLS_QUERY, []),
      withoutRls: await plan(db, serviceRole, FILTERED_QUERY, [target.organizationId, RESTRICTED]),
    };
    const indexUsed = {
      withRls: plans.withRls.includes(INDEX),
      withoutRls: plans.withoutRls.includes(INDEX),
    };
    const ratio = Math.round((rls.median / plain.median) * 100) / 100;
    const target15 = 1.5;
    const name = 'RLS: 50 newest documents of one organisation';
    const lines = [
      `${name} (${db.kind}, ${organizations} organisations × ${perOrganization} documents, a quarter restricted and hidden from the member, ${iterations} runs each)`,
      `  through RLS (authenticated):           median ${rls.median} ms, p95 ${rls.p95} ms, index ${indexUsed.withRls ? 'used' : 'NOT used'}`,
      `  explicit filter (service_role):        median ${plain.median} ms, p95 ${plain.p95} ms, index ${indexUsed.withoutRls ? 'used' : 'NOT used'}`,
      `  ratio ${ratio} (target ≤ ${target15}): ${ratio <= target15 ? 'met' : 'NOT met'}`,
      '  plan through RLS:',
      ...plans.withRls.split('\n').map((line) => `    ${line}`),
    ];
    return {
      name,
      backend: db.kind,
      organizations,
      documentsPerOrganization: perOrganization,
      iterations,
      withRls: rls,
      withoutRls: plain,
      ratio,
      target: target15,
      indexUsed,
      pass: ratio <= target15 && indexUsed.withRls && indexUsed.withoutRls,
      plans,
      lines,
    };
  } finally {
    await close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.lines.join('\n'));
  console.log('\nPlan with the explicit filter:\n' + result.plans.withoutRls);
}
