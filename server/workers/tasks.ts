import { comparePassword, hashPassword } from './password-tasks.ts';
import { extractText } from './text-extraction-tasks.ts';

/**
 * Every task the CPU pool runs, by name: CPU-heavy work that must not run on the thread that
 * answers HTTP. A task takes one argument and returns one result, both plain data (they cross
 * threads by structured clone). Text extraction and OCR are here too.
 */
export const cpuTasks = {
  hashPassword,
  comparePassword,
  extractText,
};

export type CpuTasks = typeof cpuTasks;
export type CpuTaskName = keyof CpuTasks;
