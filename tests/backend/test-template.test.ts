import { afterAll, describe, expect, it } from 'vitest';
import { postgresAdminUrl } from '../support/template.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// The PGlite test servers start from a copy of a migrated template (tests/support/template.ts),
// which also carries what the template step did once for every server started from it.

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

if (!postgresAdminUrl()) {
  describe('a PGlite test server', () => {
    it("starts with the template's small buffer pool", async () => {
      const server = await startTestServer();
      servers.push(server);
      const { rows } = await server.db.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows).toEqual([{ shared_buffers: '32MB' }]);
    });
  });
}
