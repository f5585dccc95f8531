/**
 * One small interface over PGlite and PostgreSQL, so the rest of the server never knows which
 * one it runs on. Values come back as Postgres prints them (text), except booleans, small
 * integers and JSON, which both drivers are told to parse the same way.
 */
import type { WriteClock } from './write-clock.ts';

export type Row = Record<string, unknown>;

export interface QueryResult<T = Row> {
  rows: T[];
  /** Rows affected by an insert, update or delete; rows returned by a select. */
  rowCount: number;
}

export interface Queryable {
  /** One statement with bound parameters ($1, $2, …). */
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, platform SQL). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Present when this process is the database's only writer (PGlite): every call that may
   * write ticks it. PostgreSQL has none, since other clients may write to it.
   */
  readonly writeClock?: WriteClock;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The shape of an error raised by Postgres, as both drivers report it. */
export interface PostgresError extends Error {
  code: string;
  detail?: string;
  hint?: string;
}

export function isPostgresError(error: unknown): error is PostgresError {
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** Type OIDs whose text form we keep as text in both drivers. */
export const TEXT_KEPT_TYPES = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
} as const;
