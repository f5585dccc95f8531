import ExcelJS from 'exceljs';
import { UnreadableFile } from '../text-extraction/unreadable-file.ts';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const count = (n: number) => n.toLocaleString('en');

/** A cell's text as Excel shows it; a value exceljs cannot format is left blank. */
function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text ?? '';
  } catch {
    return '';
  }
}

/**
 * An Excel workbook (.xlsx) as HTML (exceljs): every sheet under its name, as a table of its
 * first `maxRows` rows and `maxColumns` columns, with a line saying what was left out. Not yet
 * sanitised (every text is escaped here all the same).
 */
export async function excelToHtml(
  bytes: Uint8Array,
  limits: { maxRows: number; maxColumns: number },
): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  } catch {
    throw new UnreadableFile('The Excel workbook is damaged and cannot be read');
  }
  const sections: string[] = [];
  for (const sheet of workbook.worksheets) {
    const name = escapeHtml(sheet.name);
    const rows = sheet.rowCount;
    const columns = sheet.columnCount;
    const parts = [`<section aria-label="${name}"><h2>${name}</h2>`];
    if (rows === 0 || columns === 0) {
      parts.push('<p class="preview-note">This sheet is empty.</p></section>');
      sections.push(parts.join(''));
      continue;
    }
    const shownRows = Math.min(rows, limits.maxRows);
    const shownColumns = Math.min(columns, limits.maxColumns);
    const notes: string[] = [];
    if (rows > shownRows)
      notes.push(`Showing the first ${count(shownRows)} rows of ${count(rows)}.`);
    if (columns > shownColumns) {
      notes.push(`Showing the first ${count(shownColumns)} columns of ${count(columns)}.`);
    }
    for (const note of notes) parts.push(`<p class="preview-note">${note}</p>`);
    parts.push('<table><tbody>');
    for (let r = 1; r <= shownRows; r++) {
      const row = sheet.findRow(r);
      const cells: string[] = [];
      for (let c = 1; c <= shownColumns; c++) {
        cells.push(`<td>${row ? escapeHtml(cellText(row.getCell(c))) : ''}</td>`);
      }
      parts.push(`<tr>${cells.join('')}</tr>`);
    }
    parts.push('</tbody></table></section>');
    sections.push(parts.join(''));
  }
  if (sections.length === 0) return '<p class="preview-note">This workbook has no sheets.</p>';
  return sections.join('');
}
