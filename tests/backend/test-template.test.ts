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
      const server = await started();
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
    for (const server of [await started(), await started()]) {
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
    const server = await started();
    const holder = new SchemaCacheHolder();
    holder.seed(forged(await readSchemaSeed(server.db.serverWork(), EXPOSED_SCHEMA)));
    const cache = await holder.get(server.db.serverWork());
    expect(cache.tables.has('seeded_documents')).toBe(true);
    expect(cache.tables.has('documents')).toBe(false);
  });

  // Changes that keep every catalog's row count: each replaces rows rather than adding any.
  it.each([
    [
      "a function's volatility",
      'create or replace function public.seed_probe_f() returns int language sql stable as $$ select 1 $$',
      (cache: Awaited<ReturnType<SchemaCacheHolder['get']>>) =>
        expect(cache.routines.get('seed_probe_f')?.[0]?.volatility).toBe('stable'),
    ],
    [
      "a column's default",
      'alter table public.seed_probe alter column n set default 2',
      (cache: Awaited<ReturnType<SchemaCacheHolder['get']>>) =>
        expect(cache.tables.get('seed_probe')?.columns.get('n')?.defaultExpr).toBe('2'),
    ],
    [
      "a policy's expression",
      'alter policy seed_probe_read on public.seed_probe using (now() > $$2000-01-01$$)',
      (cache: Awaited<ReturnType<SchemaCacheHolder['get']>>) =>
        expect(cache.unrepeatable.has('seed_probe')).toBe(true),
    ],
  ])('is read from the catalog again after %s changed', async (_, change, changed) => {
    const server = await started();
    await server.db.serverWork().exec(
      `create function public.seed_probe_f() returns int language sql volatile as $$ select 1 $$;
       create table public.seed_probe (id int primary key, n int default 1);
       alter table public.seed_probe enable row level security;
       create policy seed_probe_read on public.seed_probe using (true);`,
    );
    const seed = forged(await readSchemaSeed(server.db.serverWork(), EXPOSED_SCHEMA));
    await server.db.serverWork().exec(change);
    const holder = new SchemaCacheHolder();
    holder.seed(seed);
    const cache = await holder.get(server.db.serverWork());
    expect(cache.tables.has('seeded_documents')).toBe(false);
    changed(cache);
  });
});
