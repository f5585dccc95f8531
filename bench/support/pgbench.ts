/**
 * The floor of PostgreSQL for one REST read: the statements Steward sent for it (recorded on the
 * wire, statement-recorder.ts), replayed by Debian's `pgbench` in extended-protocol mode at the
 * number of connections Steward gives one caller. Bound values become pgbench variables (`-D`),
 * so they stay bound parameters. Two ways to send them:
 *
 * - `round-trip-each`, the reference: one round trip per statement, as a plain client
 *   sends them; a message group that ran in the protocol's implicit transaction gets the
 *   explicit `begin` … `commit` such a client needs for its `set_config(..., true)` settings.
 * - `as-sent`: exactly as Steward sent them, a message group between `\startpipeline` and
 *   `\endpipeline` (one Sync), each statement prepared once per connection (`-M prepared`), as
 *   Steward's connections keep them.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Statement } from '../../server/db/database.ts';
import type { WireQuery } from './statement-recorder.ts';

const run = promisify(execFile);

export type FloorProtocol = 'round-trip-each' | 'as-sent';

/** The statements of `wire` as pgbench commands, `\startpipeline` and the like as they are. */
function commandsOf(wire: WireQuery[], protocol: FloorProtocol): (Statement | string)[] {
  const commands: (Statement | string)[] = [];
  for (const query of wire) {
    if (!query.oneSync) {
      commands.push(...query.statements);
    } else if (protocol === 'as-sent') {
      commands.push('\\startpipeline', ...query.statements, '\\endpipeline');
    } else {
      const explicit = /^begin\b/i.test(query.statements[0]?.sql ?? '');
      commands.push(...(explicit ? query.statements : ['begin', ...query.statements, 'commit']));
    }
  }
  return commands;
}

/** A pgbench script and its variables, one command per statement. */
export function pgbenchScript(
  wire: WireQuery[],
  protocol: FloorProtocol,
): { script: string; variables: string[] } {
  const lines: string[] = [];
  const variables: string[] = [];
  commandsOf(wire, protocol).forEach((statement, index) => {
    if (typeof statement === 'string') {
      // A meta-command takes its line, without a semicolon; a plain string is SQL.
      lines.push(statement.startsWith('\\') ? `${statement}\n` : `${statement};\n`);
      return;
    }
    if (statement.params.length === 0) {
      // A simple query may hold several statements (`begin; set local …`); the extended
      // protocol takes one at a time. Steward writes these itself, without quoted semicolons.
      for (const part of statement.sql.split(';')) if (part.trim()) lines.push(`${part.trim()};\n`);
      return;
    }
    const sql = statement.sql.replace(/\$(\d+)/g, (_, n: string) => {
      const value = statement.params[Number(n) - 1];
      if (value === null || value === undefined) {
        throw new Error(`statement ${index + 1} binds NULL, which pgbench cannot pass`);
      }
      const name = `s${index + 1}p${n}`;
      const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
      variables.push(`${name}=${text}`);
      return `:${name}`;
    });
    if (/:[A-Za-z_]/.test(sql.replace(/::/g, '').replace(/:s\d+p\d+/g, ''))) {
      throw new Error(`statement ${index + 1} holds a ':' pgbench would read as a variable`);
    }
    // pgbench reads a command up to its semicolon, across lines.
    lines.push(`${sql};\n`);
  });
  return { script: lines.join(''), variables };
}

/** Runs the script for `seconds` on `clients` connections; transactions (reads) per second. */
export async function pgbenchFloor(
  url: string,
  wire: WireQuery[],
  options: { seconds: number; clients: number; scriptFile: string; protocol: FloorProtocol },
): Promise<number> {
  const { script, variables } = pgbenchScript(wire, options.protocol);
  await writeFile(options.scriptFile, script);
  const args = [
    '--no-vacuum',
    `--protocol=${options.protocol === 'as-sent' ? 'prepared' : 'extended'}`,
    `--client=${options.clients}`,
    `--jobs=${options.clients}`,
    `--time=${options.seconds}`,
    `--file=${options.scriptFile}`,
    ...variables.flatMap((variable) => ['-D', variable]),
    url,
  ];
  const { stdout } = await run('pgbench', args, { maxBuffer: 1 << 20 });
  const failed = /number of failed transactions: (\d+)/.exec(stdout);
  if (failed && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[0]}`);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  if (!tps) throw new Error(`pgbench printed no rate:\n${stdout}`);
  return Number(tps[1]);
}
