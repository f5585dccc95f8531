import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

/** One suite of `npm test`: a command and its environment. */
export interface Pass {
  title: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * How a pass ended: its exit status (1 when it could not start or was killed), its time, and
 * the lines of its output that name a failed test (`failedTestLines`).
 */
export interface PassResult {
  title: string;
  status: number;
  seconds: number;
  failures: string[];
}

// Colours and styles of a terminal's output (ECMA-48 SGR sequences).
// eslint-disable-next-line no-control-regex
const STYLES = /\x1b\[[0-9;]*m/g;
/** Vitest's `FAIL  project  file > test` and Playwright's numbered `1) [chromium] › file…`. */
const FAILED_TEST = /^\s*(FAIL\s|\d+\) \[)/;
/** At most this many are repeated in the summary: the pass's own output has them all. */
const FAILURES_SHOWN = 20;

/**
 * The lines of `output` that name a failed test, without styles, each once. `npm test`'s
 * summary repeats them: a CI log is often read from its end, and the failing pass's own output
 * may be long before it.
 */
export function failedTestLines(output: string): string[] {
  const lines = output
    .replace(STYLES, '')
    .split('\n')
    .filter((line) => FAILED_TEST.test(line))
    .map((line) => line.trim());
  return [...new Set(lines)].slice(0, FAILURES_SHOWN);
}

interface RunOptions {
  cwd: string;
  /** Where the passes' output goes (default: this process's standard output). */
  write?: (text: string) => void;
}

/**
 * Runs lanes of passes at the same time: the passes of one lane one after the other, a lane
 * stopping at its first failure (its later passes are not run), the other lanes going on to
 * their end. So that the output stays readable, the first lane's output is shown as it comes
 * and each pass of the other lanes is shown whole when it ends, each framed by its title and
 * result. Resolves with every pass that ran, in the order they were given.
 */
export async function runLanes(lanes: Pass[][], options: RunOptions): Promise<PassResult[]> {
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const results = await Promise.all(
    lanes.map(async (lane, index) => {
      const ran: PassResult[] = [];
      for (const pass of lane) {
        const result = await runPass(pass, options.cwd, write, index === 0);
        ran.push(result);
        if (result.status !== 0) break;
      }
      return ran;
    }),
  );
  return results.flat();
}

function runPass(
  pass: Pass,
  cwd: string,
  write: (text: string) => void,
  streamed: boolean,
): Promise<PassResult> {
  const started = Date.now();
  const header = `\n=== ${pass.title} ===\n`;
  if (streamed) write(header);
  const held: string[] = streamed ? [] : [header];
  // Kept whole either way, for the failed tests' lines (decoded per stream: a chunk may end
  // inside a character).
  const output: string[] = [];
  const show = (decoder: StringDecoder) => (chunk: Buffer) => {
    const text = decoder.write(chunk);
    output.push(text);
    if (streamed) write(text);
    else held.push(text);
  };
  return new Promise((resolve) => {
    const child = spawn(pass.command, pass.args, {
      cwd,
      // Through pipes, so that this process alone writes to the terminal; colours as on it.
      env: process.stdout.isTTY ? { FORCE_COLOR: '1', ...pass.env } : pass.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', show(new StringDecoder('utf8')));
    child.stderr.on('data', show(new StringDecoder('utf8')));
    let finished = false;
    const finish = (status: number, detail = '') => {
      // A child that cannot start reports 'error' and then 'close'.
      if (finished) return;
      finished = true;
      const seconds = (Date.now() - started) / 1000;
      held.push(
        `${detail}=== ${pass.title}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)}s ===\n`,
      );
      write(held.join(''));
      const failures = status === 0 ? [] : failedTestLines(output.join(''));
      resolve({ title: pass.title, status, seconds, failures });
    };
    child.once('error', (error) => finish(1, `${error.message}\n`));
    child.once('close', (code, signal) => finish(code ?? 1, signal ? `ended by ${signal}\n` : ''));
  });
}
