/**
 * The floor of PostgreSQL for one REST read: the statements Steward sent for it (recorded on the
 * wire, statement-recorder.ts), replayed by Debian's `pgbench` in extended-protocol mode, one
 * round trip per statement as a plain client sends them, at the number of connections Steward
 * gives one caller. Bound values become pgbench variables (`-D`), so they stay bound parameters.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Statement } from '../../server/db/database.ts';

const run = promisify(execFile);

/** A pgbench script and its variables, one command per statement. */
export function pgbenchScript(statements: Statement[]): { script: string; variables: string[] } {
  const commands: string[] = [];
  const variables: string[] = [];
  statements.forEach((statement, index) => {
    if (statement.params.length === 0) {
      // A simple query may hold several statements (`begin; set local …`); the extended
      // protocol takes one at a time. Steward writes these itself, without quoted semicolons.
      for (const part of statement.sql.split(';')) if (part.trim()) commands.push(part.trim());
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
    commands.push(sql);
  });
  // pgbench reads a command up to its semicolon, across lines.
  return { script: commands.map((c) => `${c};\n`).join(''), variables };
}

/** Runs the script for `seconds` on `clients` connections; transactions (reads) per second. */
export async function pgbenchFloor(
  url: string,
  statements: Statement[],
  options: { seconds: number; clients: number; scriptFile: string },
): Promise<number> {
  const { script, variables } = pgbenchScript(statements);
  await writeFile(options.scriptFile, script);
  const args = [
    '--no-vacuum',
    '--protocol=extended',
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
