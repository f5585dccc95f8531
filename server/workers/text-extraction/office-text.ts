import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import type { CollectedText } from './collected-text.ts';
import { UnreadableFile } from './unreadable-file.ts';

/** The text of a Word document (.docx): its paragraphs, without formatting. */
export async function readDocx(bytes: Uint8Array, text: CollectedText): Promise<void> {
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) }));
  } catch {
    throw new UnreadableFile('The Word document is damaged and cannot be read');
  }
  text.add(value);
}

/** The text of an Excel workbook (.xlsx): each sheet's name, then its cells row by row. */
export async function readXlsx(bytes: Uint8Array, text: CollectedText): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  } catch {
    throw new UnreadableFile('The Excel workbook is damaged and cannot be read');
  }
  for (const sheet of workbook.worksheets) {
    if (text.full) {
      text.markTruncated();
      return;
    }
    const rows: string[] = [sheet.name];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell((cell) => {
        const value = cell.text;
        if (value) cells.push(value);
      });
      if (cells.length > 0) rows.push(cells.join(' '));
    });
    text.add(rows.join('\n'));
  }
}
