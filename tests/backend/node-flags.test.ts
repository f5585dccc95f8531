import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../server/node-flags.ts';
import { scratchDir } from '../support/scratch.ts';
import { rootDir } from '../support/template.ts';

const run = promisify(execFile);

describe("the server's node flags", () => {
  it('reach the node process `npm start` runs', async () => {
    const manifest = JSON.parse(await readFile(path.join(rootDir, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const [command, ...args] = manifest.scripts.start.split(' ');
    expect(command).toBe('tsx');
    expect(args.at(-1)).toBe('scripts/start.ts');
    // The same command line with a script that prints what node was started with.
    const probe = path.join(await scratchDir('node-flags-'), 'probe.mjs');
    await writeFile(probe, 'console.log(JSON.stringify(process.execArgv));\n');
    const { stdout } = await run(
      path.join(rootDir, 'node_modules', '.bin', 'tsx'),
      [...args.slice(0, -1), probe],
      { cwd: rootDir },
    );
    const execArgv = JSON.parse(stdout) as string[];
    expect(serverNodeFlags.length).toBeGreaterThan(0);
    for (const flag of serverNodeFlags) expect(execArgv).toContain(flag);
  });

  it('are on every command of the README that starts the server', async () => {
    const readme = await readFile(path.join(rootDir, 'README.md'), 'utf8');
    const commands = readme.split('\n').filter((line) => /\btsx\b.*server\/index\.ts/.test(line));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      for (const flag of serverNodeFlags) expect(command).toContain(flag);
    }
  });
});
