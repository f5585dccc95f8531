import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/jobs/clock.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const MINUTE = 60_000;

interface TableStats {
  n_dead_tup: number;
  n_mod_since_analyze: number;
  last_vacuum: Date | null;
  last_analyze: Date | null;
}

// PGlite runs no autovacuum: the server's own schedule vacuums and analyzes the tables that
// need it (server/housekeeping/table-maintenance.ts). PostgreSQL keeps its autovacuum.
describe('table maintenance', () => {
  let server: TestServer;
  let clock: ManualClock;

  async function stats(table: string): Promise<TableStats> {
    await server.db.serverWork().query('select pg_stat_force_next_flush()');
    await server.db.serverWork().query('select 1');
    const { rows } = await server.db.serverWork().query<TableStats>(
      `select n_dead_tup::int, n_mod_since_analyze::int, last_vacuum, last_analyze
         from pg_stat_user_tables where schemaname = 'private' and relname = $1`,
      [table],
    );
    return rows[0]!;
  }

  /** Moves the clock past the next ten-minute mark and lets the server do what is due. */
  async function nextRound(): Promise<void> {
    clock.advance(11 * MINUTE);
    await server.jobs.runDue();
    clock.advance(MINUTE);
    await server.jobs.runDue();
  }

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    server = await startTestServer({ clock, env: { JOB_POLL_INTERVAL: '1h' } });
    await server.jobs.runDue();
    await server.db.serverWork().exec(`
      create table private.maintenance_churned (id integer primary key, note text);
      create table private.maintenance_quiet (id integer primary key, note text);
      insert into private.maintenance_quiet values (1, 'left alone');
    `);
  });
  afterAll(async () => {
    await server?.db
      .serverWork()
      .exec('drop table if exists private.maintenance_churned, private.maintenance_quiet');
    await server?.close();
  });

  it('vacuums and analyzes a table past autovacuum’s thresholds on PGlite, and leaves a quiet one', async () => {
    await server.db.serverWork().exec(`
      insert into private.maintenance_churned select g, md5(g::text) from generate_series(1, 3000) g;
      delete from private.maintenance_churned where id <= 2000;
    `);
    const before = await stats('maintenance_churned');
    expect(before.n_dead_tup).toBe(2000);
    expect(before.last_vacuum).toBeNull();

    await nextRound();

    const after = await stats('maintenance_churned');
    const quiet = await stats('maintenance_quiet');
    if (server.db.kind === 'pglite') {
      expect(after.n_dead_tup).toBe(0);
      expect(after.n_mod_since_analyze).toBe(0);
      expect(after.last_vacuum).not.toBeNull();
      expect(after.last_analyze).not.toBeNull();
      expect(quiet.last_vacuum).toBeNull();
      expect(quiet.last_analyze).toBeNull();
    } else {
      // PostgreSQL's autovacuum is in charge there: the server does not register its schedule.
      const { rows } = await server.db
        .serverWork()
        .query(`select 1 from private.schedules where name = 'database.maintain-tables'`);
      expect(rows).toEqual([]);
      expect(after.last_vacuum).toBeNull();
    }
  });
});
