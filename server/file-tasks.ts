import { convertLogo } from './branding/convert-logo-task.ts';
import { writeExportZip } from './transfer/export-zip-task.ts';
import { readImportZip } from './transfer/import-zip-task.ts';
import { renderOfficePreview } from './workers/office-preview-tasks.ts';
import { extractText } from './workers/text-extraction-tasks.ts';

/**
 * Every task the background processes run (`server/workers/process-pool.ts`), by name: work that
 * decodes or packs files members uploaded (a PDF, a scan, a workbook, a Word or Excel preview,
 * an import ZIP), whose memory no heap limit can bound. Each runs in a child process whose
 * resident memory is capped: a hostile file ends its own process, never the server. A task takes one argument and returns
 * one result, both plain data (they cross processes by structured clone). The pool loads this
 * module in its processes only, by its address (`tasksModule`), so it stands above the features
 * whose tasks it names and nothing imports it but for its type.
 */
export const tasks = {
  extractText,
  renderOfficePreview,
  writeExportZip,
  readImportZip,
  convertLogo,
};

export type FileTasks = typeof tasks;
