/**
 * `npm run bench`: runs every `bench/*.bench.ts` (alphabetically), or only those named on the
 * command line (`npm run bench -- rest-read cold-start`), one after the other, and prints what
 * each returns.
 *
 * A bench module exports `run()`, resolving to printable results: either lines of text, or an
 * object with `lines: string[]` (and optionally `name` and `pass: boolean` for the summary).
 * Adding a bench is adding a file; this runner needs no change.
 */
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface BenchOutput {
  name?: string;
  lines?: string[];
  pass?: boolean;
}

type BenchModule = { run?: () => Promise<BenchOutput | string[] | string> };

const benchDir = import.meta.dirname;

async function benchFiles(names: string[]): Promise<string[]> {
  const all = (await readdir(benchDir)).filter((file) => file.endsWith('.bench.ts')).sort();
  if (names.length === 0) return all;
  return names.map((name) => {
    const file = all.find((f) => f === name || f === `${name}.bench.ts`);
    if (!file) throw new Error(`No bench named "${name}". Known: ${all.join(', ')}`);
    return file;
  });
}

function linesOf(output: BenchOutput | string[] | string): string[] {
  if (typeof output === 'string') return [output];
  if (Array.isArray(output)) return output;
  return output.lines ?? [JSON.stringify(output, null, 2)];
}

const files = await benchFiles(process.argv.slice(2));
console.log(`Benchmarks: ${files.join(', ')}`);
console.log(
  `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const summary: string[] = [];
let failed = false;
for (const file of files) {
  const started = performance.now();
  console.log(`\n=== ${file} ===`);
  try {
    const mod = (await import(pathToFileURL(path.join(benchDir, file)).href)) as BenchModule;
    if (typeof mod.run !== 'function') throw new Error('exports no run()');
    const output = await mod.run();
    console.log(linesOf(output).join('\n'));
    const pass = typeof output === 'object' && !Array.isArray(output) ? output.pass : undefined;
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    summary.push(
      `${file}: ${pass === undefined ? 'done' : pass ? 'target met' : 'TARGET MISSED'} (${seconds}s)`,
    );
  } catch (error) {
    failed = true;
    console.error(error);
    summary.push(`${file}: FAILED (${(error as Error).message})`);
  }
}
console.log(`\n=== summary ===\n${summary.join('\n')}`);
process.exitCode = failed ? 1 : 0;
