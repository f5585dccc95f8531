import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLanes, type Pass } from '../../scripts/test-passes.ts';

const rootDir = path.resolve(import.meta.dirname, '../..');

/**
 * A pass that prints `lines` and exits with `status`; before its last line it waits for the file
 * `waitFor` to exist, and after it creates `creates` (to show that passes run at the same time
 * without relying on how long anything takes).
 */
function pass(
  title: string,
  lines: string[],
  options: { status?: number; waitFor?: string; creates?: string } = {},
): Pass {
  const script = `
    const fs = require('node:fs');
    const [lines, { status = 0, waitFor, creates }] = ${JSON.stringify([lines, options])};
    for (const line of lines.slice(0, -1)) console.log(line);
    const last = () => {
      if (waitFor && !fs.existsSync(waitFor)) return setTimeout(last, 20);
      console.log(lines.at(-1));
      if (creates) fs.writeFileSync(creates, '');
      process.exitCode = status;
    };
    last();`;
  return { title, command: process.execPath, args: ['-e', script], env: process.env };
}

async function run(lanes: Pass[][]) {
  let output = '';
  const results = await runLanes(lanes, { cwd: rootDir, write: (text) => (output += text) });
  return { results, output };
}

describe("npm test's passes side by side (scripts/test-passes.ts)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'steward-passes-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  it("shows the first lane's output as it comes and each other pass whole, framed by its title", async () => {
    // The first lane ends only once the second lane's last pass has.
    const s3Done = path.join(dir, 's3-done');
    const { results, output } = await run([
      [pass('end to end', ['e1', 'e2'], { waitFor: s3Done })],
      [pass('postgres', ['p1', 'p2']), pass('s3', ['s1', 's2'], { creates: s3Done })],
    ]);
    expect(results.map(({ title, status }) => [title, status])).toEqual([
      ['end to end', 0],
      ['postgres', 0],
      ['s3', 0],
    ]);
    // Each pass of the second lane in one block, one after the other; they ran while the first
    // lane's pass did, which waited for the second lane's last pass before its last line.
    expect(output).toMatch(/\n=== postgres ===\np1\np2\n=== postgres: passed in \d+s ===\n/);
    expect(output).toMatch(/\n=== s3 ===\ns1\ns2\n=== s3: passed in \d+s ===\n/);
    expect(output.indexOf('=== postgres: passed')).toBeLessThan(output.indexOf('e2'));
    expect(output.startsWith('\n=== end to end ===\n')).toBe(true);
    expect(output).toContain('\ne1\n');
    expect(output).toMatch(/\ne2\n[^]*=== end to end: passed in \d+s ===\n/);
  });

  it('stops a lane at its first failure, with the status of the failed pass, and lets the other lane end', async () => {
    const postgresDone = path.join(dir, 'postgres-done');
    const { results, output } = await run([
      [pass('end to end', ['e1', 'e2'], { waitFor: postgresDone })],
      [pass('postgres', ['p1'], { status: 3, creates: postgresDone }), pass('s3', ['s1'])],
    ]);
    expect(results.map(({ title, status }) => [title, status])).toEqual([
      ['end to end', 0],
      ['postgres', 3],
    ]);
    expect(output).toContain('=== postgres: FAILED in');
    expect(output).not.toContain('s1');
    expect(output).toContain('=== end to end: passed in');
  });

  it('names the failed tests of a failed pass, for the summary at the end of the log', async () => {
    const vitestFailure = '\x1b[31m FAIL \x1b[39m backend  tests/backend/a.test.ts > a > fails';
    const { results } = await run([
      [pass('e2e', ['  1) [chromium] › e2e/a.spec.ts:3:1 › opens ──', 'failed'], { status: 1 })],
      [
        pass('postgres', ['✓ passes', vitestFailure, 'AssertionError: no', vitestFailure, 'end'], {
          status: 1,
        }),
      ],
      [pass('s3', [' FAIL  would be a failure, but the pass passed'])],
    ]);
    expect(results.map(({ title, failures }) => [title, failures])).toEqual([
      ['e2e', ['1) [chromium] › e2e/a.spec.ts:3:1 › opens ──']],
      ['postgres', ['FAIL  backend  tests/backend/a.test.ts > a > fails']],
      ['s3', []],
    ]);
  });

  it('reports a command that cannot start as a failure', async () => {
    const { results, output } = await run([
      [{ title: 'missing', command: path.join(rootDir, 'no-such-command'), args: [], env: {} }],
    ]);
    expect(results).toEqual([
      { title: 'missing', status: 1, seconds: expect.any(Number), failures: [] },
    ]);
    expect(output).toMatch(/ENOENT[^]*=== missing: FAILED in \d+s ===/);
  });
});
