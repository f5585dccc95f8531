import { writeExportZip } from '../transfer/export-zip-task.ts';
import { readImportZip } from '../transfer/import-zip-task.ts';
import { extractText } from './text-extraction-tasks.ts';

/**
 * Every task the background processes run (server/workers/process-pool.ts), by name: work that
 * decodes or packs files members uploaded (a PDF, a scan, a workbook, an import ZIP), whose
 * memory no heap limit can bound. Each runs in a child process whose resident memory is capped:
 * a hostile file ends its own process, never the server. A task takes one argument and returns
 * one result, both plain data (they cross processes by structured clone).
 */
export const fileTasks = {
  extractText,
  writeExportZip,
  readImportZip,
};

export type FileTasks = typeof fileTasks;
export type FileTaskName = keyof FileTasks;
