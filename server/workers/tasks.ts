import { comparePassword, hashPassword } from './password-tasks.ts';

/**
 * Every task the CPU pool runs, by name: CPU-heavy work that must not run on the thread that
 * answers HTTP. A task takes one argument and returns one result, both plain data (they cross
 * threads by structured clone). Later work (text extraction, OCR, archives) is added here.
 */
export const cpuTasks = {
  hashPassword,
  comparePassword,
};

export type CpuTasks = typeof cpuTasks;
export type CpuTaskName = keyof CpuTasks;
