/**
 * Messages between the server's main thread and the worker that owns PGlite
 * (pglite-worker.ts). The main thread sends one request at a time and waits for its answer.
 */
import type { BatchEnd, Row, Statement } from './database.ts';

export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; params: readonly unknown[] }
  | { id: number; op: 'exec'; sql: string }
  /**
   * Runs `statements` in one extended-protocol batch (see pglite-batch.ts) and answers the rows
   * of statement `rowsOf` (default the last). A read-only batch is complete when it answers; a
   * writing one that `ends` (database.ts) is ended by then too, as its rows decide; any other
   * leaves its transaction open for `finish`.
   */
  | {
      id: number;
      op: 'batch';
      statements: Statement[];
      readOnly: boolean;
      /** Answered as UTF-8 bytes, transferred with the answer (`BatchOptions.bytesColumn`). */
      bytesColumn?: string;
      ends?: BatchEnd;
      rowsOf?: number;
    }
  /**
   * Runs a read-only batch again and again for `seconds`, answering how many times it ran in
   * `rowCount`: the embedded database's own rate for one read, without the main thread in the
   * loop (the floor of bench/rest-read.bench.ts).
   */
  | { id: number; op: 'repeat'; statements: Statement[]; seconds: number }
  /** Commits (or rolls back) the transaction a writing batch left open. */
  | { id: number; op: 'finish'; commit: boolean }
  /** Writes the whole database to `file` (pglite-dump.ts); nothing else runs meanwhile. */
  | { id: number; op: 'dump'; file: string }
  | { id: number; op: 'close' };

/** A Postgres error as plain data (errors lose their own fields when posted between threads). */
export interface ErrorData {
  message: string;
  code?: string;
  detail?: string;
  hint?: string;
  position?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
}

export type WorkerAnswer =
  | { id: number; ok: true; rows: Row[]; rowCount: number }
  | { id: number; ok: false; error: ErrorData };

/** What the worker posts once, when PGlite is open (or could not be opened). */
export type WorkerStart = { started: true } | { started: false; error: ErrorData };

const ERROR_FIELDS = [
  'code',
  'detail',
  'hint',
  'position',
  'schema',
  'table',
  'column',
  'constraint',
] as const;

export function errorToData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { message: String(error) };
  const data: ErrorData = { message: error.message };
  for (const field of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string') data[field] = value;
  }
  return data;
}

/** An Error carrying the Postgres fields, as both drivers throw them (see `isPostgresError`). */
export function errorFromData(data: ErrorData): Error {
  const { message, ...fields } = data;
  return Object.assign(new Error(message), fields);
}
