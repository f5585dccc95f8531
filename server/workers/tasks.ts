import { writeExportZip } from '../transfer/export-zip-task.ts';
import { readImportZip } from '../transfer/import-zip-task.ts';
import { comparePassword, hashPassword } from './password-tasks.ts';
import { extractText } from './text-extraction-tasks.ts';

/**
 * Every task the CPU pool runs, by name: CPU-heavy work that must not run on the thread that
 * answers HTTP. A task takes one argument and returns one result, both plain data (they cross
 * threads by structured clone). Text extraction and OCR are here too, and the
 * writing and reading of organisation export ZIPs.
 */
export const cpuTasks = {
  hashPassword,
  comparePassword,
  extractText,
  writeExportZip,
  readImportZip,
};

export type CpuTasks = typeof cpuTasks;
export type CpuTaskName = keyof CpuTasks;
