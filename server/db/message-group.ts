/**
 * Several statements sent to PostgreSQL as one message group of the extended query protocol:
 * Parse, Bind and Execute for each (Describe only for the one whose rows are the answer, the last unless told otherwise) and
 * a single Sync. node-postgres sends each of its queries with its own Sync and reads its own
 * ReadyForQuery; a REST read as four queries cost four query objects, four answers to match and
 * four waits on the same connection. As one group it is one write, one ReadyForQuery and one
 * query object.
 *
 * What the protocol guarantees (PostgreSQL's "Extended Query" and "Pipelining"): everything
 * before a Sync that is not inside an explicit BEGIN runs as one implicit transaction, committed
 * at the Sync; when a statement fails, the server skips every message up to the Sync and rolls
 * the transaction back. So a read needs no BEGIN or COMMIT: its `set_config(..., true)`
 * settings hold for the statements after them and end with the group, whether it succeeds or
 * fails, and a failing statement fails the group alone. With an explicit BEGIN as the first
 * statement the transaction stays open after the Sync, for the caller to end.
 */
import type pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import type { Row, Statement } from './database.ts';
import type { PreparedNames } from './prepared-names.ts';

/** How the values of a column are read from their text form (node-postgres' type parsers). */
export interface TypeParsers {
  getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
}

export class MessageGroup implements pg.Submittable {
  /** The rows of the answering statement, once the group's ReadyForQuery has come. */
  readonly rows: Promise<Row[]>;
  private resolve!: (rows: Row[]) => void;
  private reject!: (error: unknown) => void;
  private readonly values: (string | Buffer | null)[][];
  private columns: { name: string; parse: (value: string) => unknown }[] = [];
  private readonly answer: Row[] = [];
  /** Statements whose CommandComplete has come: the rows that follow belong to the next one. */
  private completed = 0;
  /** A value the type parsers refused; reported at ReadyForQuery, as node-postgres does. */
  private parseFailure: unknown = null;
  private settled = false;
  /** The names the statements went by, when the connection keeps them prepared. */
  private used: { name: string; parse: boolean }[] | null = null;
  /** Written already (`writeAhead`): node-postgres' own `submit` then has nothing to send. */
  private written = false;
  private onTurn: (() => void) | undefined;

  /**
   * Converts the values at once, as node-postgres would (`prepareValue`: dates, arrays, JSON),
   * so that a value it cannot send fails here, before anything of the group is written. With
   * `names` (the connection's), a statement sent before is bound by its name, not parsed again.
   */
  constructor(
    readonly statements: Statement[],
    private readonly types: TypeParsers,
    private readonly names?: PreparedNames,
    /** The statement whose rows are the answer (default the last). */
    private readonly answerAt = statements.length - 1,
  ) {
    this.rows = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // The promise may be rejected before its reader awaits it (a failure on submit).
    this.rows.catch(() => undefined);
    this.values = statements.map((statement) =>
      statement.params.map((value) => pgUtils.prepareValue(value)),
    );
  }

  /** Called by node-postgres when the connection is free: the whole group in one write. */
  submit(connection: pg.Connection): void {
    if (this.written) this.onTurn?.();
    else this.write(connection, false);
  }

  /**
   * Writes the group now, while the connection's current query still waits for its answer; the
   * caller queues it with `client.query` right after, with no other query in between, and
   * node-postgres' own `submit` then only calls `onTurn` (its answer is the next to come). The
   * server runs the group as soon as it has finished the one before, each up to its own Sync,
   * so one's failure or settings never reach the other. Statements whose Parse is still on its
   * way in an earlier group are parsed again unnamed (that Parse may yet fail).
   */
  writeAhead(connection: pg.Connection, onTurn: () => void): void {
    this.onTurn = onTurn;
    this.write(connection, true);
  }

  private write(connection: pg.Connection, ahead: boolean): void {
    this.written = true;
    const stream = connection.stream as pg.Connection['stream'] & {
      cork?: () => void;
      uncork?: () => void;
    };
    const closing = this.names?.takeClosing() ?? [];
    const used = this.names?.use(
      this.statements.map((statement) => statement.sql),
      ahead,
    );
    this.used = used ?? null;
    stream.cork?.();
    try {
      for (const name of closing) connection.close({ type: 'S', name }, false);
      this.statements.forEach((statement, index) => {
        const { name, parse } = used?.[index] ?? { name: '', parse: true };
        if (parse) connection.parse({ name, text: statement.sql, types: [] }, false);
        connection.bind({ statement: name, values: this.values[index] }, false);
        if (index === this.answerAt) connection.describe({ type: 'P' }, false);
        connection.execute({}, false);
      });
      connection.sync();
    } finally {
      stream.uncork?.();
    }
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.columns = message.fields.map((field) => ({
      name: field.name,
      parse: this.types.getTypeParser(field.dataTypeID, 'text'),
    }));
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    // Only the answering statement is described; the settings' rows are not wanted.
    if (this.completed !== this.answerAt || this.parseFailure) return;
    const row: Row = {};
    try {
      message.fields.forEach((value, index) => {
        const column = this.columns[index]!;
        row[column.name] = value === null ? null : column.parse(value);
      });
    } catch (error) {
      this.parseFailure = error;
      return;
    }
    this.answer.push(row);
  }

  handleCommandComplete(): void {
    this.completed += 1;
  }

  handleEmptyQuery(): void {
    this.completed += 1;
  }

  /**
   * An ErrorResponse (the server then skips to the Sync, and node-postgres waits for its
   * ReadyForQuery before the connection's next query), or the connection's loss.
   */
  handleError(error: unknown): void {
    if (this.used) this.names?.forget(this.used);
    this.settle(error);
  }

  handleReadyForQuery(): void {
    // The group ran to its Sync without an ErrorResponse: what it parsed exists.
    if (this.used && !this.settled) this.names?.confirm(this.used);
    this.settle(this.parseFailure);
  }

  // Never asked for by these statements; answered as node-postgres' own queries do.
  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: pg.Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  private settle(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (error) this.reject(error);
    else this.resolve(this.answer);
  }
}
