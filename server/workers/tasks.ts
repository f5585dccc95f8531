import { comparePassword, hashPassword } from './password-tasks.ts';

/**
 * Every task the CPU pool's threads run, by name: CPU-heavy work that must not run on the thread
 * that answers HTTP. A task takes one argument and returns one result, both plain data (they
 * cross threads by structured clone). Work on members' files runs in child processes instead,
 * where a memory cap can end it (file-tasks.ts).
 */
export const cpuTasks = {
  hashPassword,
  comparePassword,
};

export type CpuTasks = typeof cpuTasks;
export type CpuTaskName = keyof CpuTasks;
