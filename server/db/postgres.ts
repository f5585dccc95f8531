import pg from 'pg';
import type { Database, Queryable, QueryResult, Row } from './database.ts';
import { TEXT_KEPT_TYPES } from './database.ts';

const textOids = new Set<number>(Object.values(TEXT_KEPT_TYPES));
const typeParsers = {
  getTypeParser(oid: number, format?: string) {
    if (textOids.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function wrap(client: pg.PoolClient | pg.Pool): Queryable {
  return {
    async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query({
        text: sql,
        values: params as unknown[],
        types: typeParsers,
      });
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

/** Connects to a PostgreSQL server (≥ 15) through a small pool. */
export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle connection that the server ends (a restart, a failover, an administrator) is
  // reported here; without a listener node-postgres throws it and the whole process stops.
  // The pool drops that connection and opens a new one on the next query.
  pool.on('error', (error) => {
    console.error(
      `database: an idle connection was closed (${error.message}); it will be replaced`,
    );
  });
  // Fail at start-up, not on the first request, when the server cannot be reached.
  const probe = await pool.connect();
  probe.release();
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
