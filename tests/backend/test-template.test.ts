import { afterAll, describe, expect, it } from 'vitest';
import {
  EXPOSED_SCHEMA,
  SchemaCacheHolder,
  readSchemaSeed,
  schemaCacheFor,
  type SchemaSeed,
} from '../../server/rest/schema-cache.ts';
import { loadSchemaCache } from '../../server/rest/schema-load.ts';
import { postgresAdminUrl } from '../support/template.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// The PGlite test servers start from a copy of a migrated template (tests/support/template.ts),
// which also carries what the template step did once for every server started from it: its
// settings, and the REST schema cache read from it (a `SchemaSeed`), which a server uses only
// while its catalog is still the template's.

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function started(): Promise<TestServer> {
  const server = await startTestServer();
  servers.push(server);
  return server;
}

/**
 * A server whose database nothing changes, for the tests that only read it: one start (about
 * 1.5 s of CPU on PGlite) instead of one each. Tests that change the catalog start their own.
 */
let unchanged: Promise<TestServer> | undefined;
const unchangedServer = () => (unchanged ??= started());

/** The seed with the documents table renamed: a cache built from it is recognisable. */
const forged = (seed: SchemaSeed): SchemaSeed => ({
  ...seed,
  rows: {
    ...seed.rows,
    columns: seed.rows.columns.map((column) =>
      column.table_name === 'documents' ? { ...column, table_name: 'seeded_documents' } : column,
    ),
  },
});

if (!postgresAdminUrl()) {
  describe('a PGlite test server', () => {
    it("starts with the template's small buffer pool", async () => {
      const server = await unchangedServer();
      const { rows } = await server.db
        .serverWork()
        .query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows).toEqual([{ shared_buffers: '32MB' }]);
    });
  });
}

describe('the schema cache of a copied database', () => {
  it("is the one a load from its own catalog gives, from the template's seed", async () => {
    // On PostgreSQL the seed is read from the process's first copy: the second is another's.
    for (const server of [await unchangedServer(), await started()]) {
      const seeded = await schemaCacheFor(server.db).get(server.db.serverWork());
      expect(seeded).toEqual(await loadSchemaCache(server.db.serverWork(), EXPOSED_SCHEMA));
    }
  });

  it('sees a table created before its first request', async () => {
    const server = await started();
    await server.db.serverWork().exec(
      `create table public.made_after_start (id int primary key, note text);
       insert into public.made_after_start values (1, 'after the template');
       grant select on public.made_after_start to service_role;`,
    );
    const { data, error } = await server.service().from('made_after_start').select('id, note');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, note: 'after the template' }]);
  });

  it("is built from the seed while the catalog is the seed's", async () => {
    const server = await unchangedServer();
    const holder = new SchemaCacheHolder();
    holder.seed(forged(await readSchemaSeed(server.db.serverWork(), EXPOSED_SCHEMA)));
    const cache = await holder.get(server.db.serverWork());
    expect(cache.tables.has('seeded_documents')).toBe(true);
    expect(cache.tables.has('documents')).toBe(false);
  });

  // Changes that keep every catalog's row count: each replaces rows rather than adding any. The
  // cases share one server (a start each cost about 1.5 s of CPU on PGlite), each with objects
  // of its own name (`probe`), so the catalog a case's seed is read from holds only what the
  // cases before it added, and its change is the one change since its seed.
  let probes: Promise<TestServer> | undefined;
  type Cache = Awaited<ReturnType<SchemaCacheHolder['get']>>;
  it.each([
    [
      "a function's volatility",
      'seed_probe_1',
      (probe: string) =>
        `create or replace function public.${probe}_f() returns int language sql stable as $$ select 1 $$`,
      (cache: Cache, probe: string) =>
        expect(cache.routines.get(`${probe}_f`)?.[0]?.volatility).toBe('stable'),
    ],
    [
      "a column's default",
      'seed_probe_2',
      (probe: string) => `alter table public.${probe} alter column n set default 2`,
      (cache: Cache, probe: string) =>
        expect(cache.tables.get(probe)?.columns.get('n')?.defaultExpr).toBe('2'),
    ],
    [
      "a policy's expression",
      'seed_probe_3',
      (probe: string) =>
        `alter policy ${probe}_read on public.${probe} using (now() > $$2000-01-01$$)`,
      (cache: Cache, probe: string) => expect(cache.unrepeatable.has(probe)).toBe(true),
    ],
  ])('is read from the catalog again after %s changed', async (_, probe, change, changed) => {
    const server = await (probes ??= started());
    await server.db.serverWork().exec(
      `create function public.${probe}_f() returns int language sql volatile as $$ select 1 $$;
       create table public.${probe} (id int primary key, n int default 1);
       alter table public.${probe} enable row level security;
       create policy ${probe}_read on public.${probe} using (true);`,
    );
    const seed = forged(await readSchemaSeed(server.db.serverWork(), EXPOSED_SCHEMA));
    await server.db.serverWork().exec(change(probe));
    const holder = new SchemaCacheHolder();
    holder.seed(seed);
    const cache = await holder.get(server.db.serverWork());
    expect(cache.tables.has('seeded_documents')).toBe(false);
    changed(cache, probe);
  });
});
