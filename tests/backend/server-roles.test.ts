import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/server.ts';
import { createOrganisation, unwrap } from '../security/world.ts';
import { objectStorageEnv, startLocalS3Server, type LocalS3Server } from '../support/s3.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { postgresAdminUrl } from '../support/template.ts';
import { uploadDocument } from './document-helpers.ts';

// STEWARD_ROLE (steward.toml [server] role): `all` serves HTTP and runs the background work,
// `api` only serves HTTP, `worker` only runs the background work, so that several processes
// on one PostgreSQL and one bucket can share the work (docs/several-processes.md).

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('STEWARD_ROLE', () => {
  it('refuses to share the work without a database and files other processes can share', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const asRole = (role: 'api' | 'worker') =>
      startServer({
        config: { ...server.config, role, port: 0 },
        db: server.db,
        skipMigrations: true,
      });
    const needed = postgresAdminUrl()
      ? /STEWARD_ROLE=api shares the work with other processes: it needs the stored files in a bucket/
      : /STEWARD_ROLE=api shares the work with other processes: it needs PostgreSQL \(DATABASE_URL\)/;
    await expect(asRole('api')).rejects.toThrow(needed);
    await expect(asRole('worker')).rejects.toThrow(/STEWARD_ROLE=worker shares the work/);
    // The server it was tried on still answers.
    unwrap(await server.service().storage.listBuckets(), 'list buckets');
  });
});

// Several processes share PostgreSQL: the PostgreSQL pass runs this.
if (postgresAdminUrl()) {
  describe('an API process and a worker on one PostgreSQL and one bucket', () => {
    let s3: LocalS3Server;
    let api: TestServer;
    let worker: RunningServer;

    it('serves the app from the API process while the worker reads the files it stored', async () => {
      s3 = await startLocalS3Server();
      cleanups.push(() => s3.close());
      const files = objectStorageEnv(await s3.freshBucket());
      api = await startTestServer({ env: { ...files, STEWARD_ROLE: 'api' } });
      cleanups.push(() => api.close());
      const church = await createOrganisation(api, 'Shared Church');
      const doc = await uploadDocument(church.master, church, {
        name: 'Boiler.txt',
        content: 'The boiler of the parish hall was serviced in March',
      });

      // A worker without AUTH_SITE_URL would link its e-mails to nothing.
      await expect(
        startServer({
          config: { ...api.config, role: 'worker', databaseUrl: api.databaseUrl! },
          skipMigrations: true,
        }),
      ).rejects.toThrow(/STEWARD_ROLE=worker sends e-mails .* set AUTH_SITE_URL/);
      worker = await startServer({
        config: {
          ...api.config,
          role: 'worker',
          databaseUrl: api.databaseUrl!,
          auth: { ...api.config.auth, siteUrl: api.url },
          workers: { ...api.config.workers, jobPollIntervalMs: 100 },
        },
        skipMigrations: true,
      });
      cleanups.push(() => worker.close());

      // The worker reads the document's text from the bucket; the API process finds it by it.
      const search = async () =>
        unwrap(
          await church.master.client.rpc('search_documents', { search: 'boiler serviced' }),
          'search',
        ) as { id: string }[];
      await expect
        .poll(search, { timeout: 60_000, interval: 200 })
        .toEqual([expect.objectContaining({ id: doc.id })]);

      // The worker serves no API.
      const answer = await fetch(`${worker.url}/rest/v1/documents`, {
        headers: { apikey: worker.keys.anonKey },
      });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({
        message: 'This process runs background work only (STEWARD_ROLE=worker).',
      });
    }, 120_000);
  });
}
