// The entry of every background process (server/workers/process-pool.ts): a child process that
// runs one task on a member's file at a time and answers over IPC. Its tasks are the `tasks`
// export of the module the pool names as its first argument (server/file-tasks.ts).
//
// Plain JavaScript that loads the tasks' TypeScript itself (server/import-typescript.mjs), as
// worker.mjs does: the process is started with only the flags the pool chooses (a heap limit),
// not the server's loader flags.
import { writeFileSync } from 'node:fs';
import { importTypeScript } from '../import-typescript.mjs';

// Should the machine run out of memory before the pool's watchdog acts, the kernel ends this
// process first, not the server (a process may always raise its own score).
try {
  writeFileSync('/proc/self/oom_score_adj', '1000');
} catch {
  // Not Linux: the watchdog and the heap limit still bound the process.
}

// The server is gone (stopped, or killed): so is its work.
process.on('disconnect', () => process.exit(0));

const { tasks } = await importTypeScript(process.argv[2]);

process.on('message', async ({ id, name, args }) => {
  try {
    if (!Object.hasOwn(tasks, name)) throw new Error(`There is no file task named ${name}`);
    const result = await tasks[name](args);
    process.send({ id, result });
  } catch (error) {
    // An error's own fields (its `code`, such as ENOENT) do not survive the structured clone.
    const { name: errorName, message, code } = error instanceof Error ? error : {};
    process.send({
      id,
      error: { name: errorName ?? 'Error', message: message ?? String(error), code },
    });
  }
});

process.send({ ready: true });
