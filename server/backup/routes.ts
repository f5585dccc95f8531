import { openFileStore } from '../storage/open-file-store.ts';
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { PgliteHost } from '../db/pglite-host.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { takeSnapshot } from './snapshot.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * `POST /backup/v1/snapshot`: the running server's half of `npm run backup` (backup.ts). Only
 * the server holds the embedded database, so only it can take a consistent copy while it
 * serves. It puts the snapshot together inside the data directory and answers its id; the
 * backup command, on the same machine, packs and compresses it in its own process, so no
 * compression runs on the thread that answers HTTP. Only for the service role, and only from
 * this machine: the answer is of use only to a process that can read the data directory.
 */
export function createBackupApp(ctx: AppContext): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.post('/snapshot', async (c) => {
    const result = c.var.credentials.caller;
    if (!result.ok || result.caller.role !== 'service_role') {
      return c.json({ error: 'forbidden', message: 'a backup needs the service_role key' }, 403);
    }
    if (!LOOPBACK.has(clientAddress(c) ?? '')) {
      return c.json(
        { error: 'forbidden', message: 'a backup can only be asked for from the server itself' },
        403,
      );
    }
    if (!(ctx.db instanceof PgliteHost)) {
      return c.json(
        {
          error: 'not_available',
          message:
            'this server uses PostgreSQL: back it up with pg_dump and a copy of the storage folder (see the README)',
        },
        400,
      );
    }
    const snapshot = await takeSnapshot(
      ctx.config.dataDir,
      openFileStore(ctx.config.dataDir, ctx.config.storage.objects),
      ctx.db,
      ctx.clock.now(),
    );
    return c.json({ snapshot: snapshot.id, manifest: snapshot.manifest });
  });
  return app;
}
