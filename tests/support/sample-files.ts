/**
 * Small real files of every kind the search reads, made on the spot with the libraries that
 * write them (pdf-lib, exceljs, fflate), plus the committed fixtures in tests/fixtures/extraction:
 * a screenshot of printed words (for OCR) and a PDF encrypted with qpdf.
 */
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { rawZip } from './zip-files.ts';

const fixtures = path.resolve(import.meta.dirname, '..', 'fixtures', 'extraction');

/** A PNG of two printed lines: "Certificate of insurance for the youth camp / Lakeside Retreat, policy 4471". */
export const scannedCertificatePng = (): Uint8Array =>
  new Uint8Array(readFileSync(path.join(fixtures, 'scanned-certificate.png')));

/** A PDF encrypted with a user password (qpdf, AES-256); its text reads "Confidential salary review…". */
export const passwordProtectedPdf = (): Uint8Array =>
  new Uint8Array(readFileSync(path.join(fixtures, 'password-protected.pdf')));

/** A PDF with a text layer, one page per entry of `pages`. */
export async function textPdf(pages: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) pdf.addPage().drawText(text, { x: 50, y: 700, font, size: 12 });
  return pdf.save();
}

/** A PDF whose pages are the scanned certificate as an image: no text layer at all. */
export async function scannedPdf(pages = 1): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(scannedCertificatePng());
  for (let i = 0; i < pages; i++) {
    pdf
      .addPage([image.width, image.height])
      .drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  }
  return pdf.save();
}

/** A minimal Word document (the three parts Word itself needs) with these paragraphs. */
export function docx(paragraphs: string[]): Uint8Array {
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${escape(p)}</w:t></w:r></w:p>`).join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body>${body}</w:body></w:document>`,
    ),
  });
}

/** An Excel workbook with one sheet of these rows. */
export async function xlsx(sheetName: string, rows: (string | number)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A large Excel workbook of one sheet of text cells (the preview bounds' tens of thousands of
 * rows): `xlsx` for one row, its sheet and shared strings then written out for all the rows as
 * exceljs writes them (`t="s"` cells indexing one string each). exceljs took 2.5 s of CPU to
 * write 94,000 cells, most of it in its own model and XML writer; this, a fraction of that.
 */
export async function largeXlsx(sheetName: string, rows: string[][]): Promise<Uint8Array> {
  const parts = unzipSync(await xlsx(sheetName, [rows[0]!]));
  const sheet = new TextDecoder().decode(parts['xl/worksheets/sheet1.xml']);
  const width = Math.max(...rows.map((row) => row.length));
  const column = (n: number) => String.fromCharCode(65 + n); // A-Z: enough for these sheets
  const strings: string[] = [];
  const rowsXml = rows.map((row, r) => {
    const cells = row.map((text, c) => {
      strings.push(`<si><t>${escapeXml(text)}</t></si>`);
      return `<c r="${column(c)}${r + 1}" t="s"><v>${strings.length - 1}</v></c>`;
    });
    return `<row r="${r + 1}" spans="1:${width}" x14ac:dyDescent="0.25">${cells.join('')}</row>`;
  });
  const before = sheet.slice(0, sheet.indexOf('<dimension '));
  const after = sheet.slice(sheet.indexOf('</sheetData>'));
  const sheetFormat = /<sheetFormatPr[^>]*\/>/.exec(sheet)![0];
  parts['xl/worksheets/sheet1.xml'] = strToU8(
    `${before}<dimension ref="A1:${column(width - 1)}${rows.length}"/>${sheetFormat}` +
      `<sheetData>${rowsXml.join('')}${after}`,
  );
  parts['xl/sharedStrings.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">` +
      `${strings.join('')}</sst>`,
  );
  // Deflated by Node's zlib: fflate's own deflate of the 13 MB of XML took 0.7 s of CPU.
  return new Uint8Array(
    rawZip(Object.entries(parts).map(([name, data]) => ({ name, data, deflate: data.length > 0 }))),
  );
}
