/**
 * The flags Node runs the server's process with: `npm start` (package.json, whose `start` script
 * cannot import this module and is kept equal to it by tests/backend/node-flags.test.ts), and
 * every bench, test and script that starts the server as a process of its own.
 *
 * `--heap-growing-percent=300`: after a full collection V8 lets a heap grow to 4 × what stayed
 * alive before it collects again, instead of a factor V8 picks between 1.1 and 4 from how fast
 * the program allocates. The server allocates briskly and keeps little (each answer's bytes, the
 * PGlite worker's copies of each result), so V8's own pick kept its helper threads collecting
 * about a third of the time it spent answering a read; with the flag they take a third of that,
 * and PGlite's distinct read rose from 0.51-0.63 to 0.66-0.81 of its floor in alternated pairs
 * (bench/RESULTS.md, "V8's heap growing factor"). The flag is process-wide: it holds for the
 * PGlite worker and the CPU pool's threads too. It is not accepted in NODE_OPTIONS, so it goes on
 * the command line. The bounded worker processes (workers/process-pool.ts) set their own
 * `execArgv` and keep V8's default, as their heap is capped.
 */
export const serverNodeFlags: readonly string[] = ['--heap-growing-percent=300'];
