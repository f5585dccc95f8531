import { fileExtension } from '../../../lib/file-kinds.ts';

/**
 * Why `file` cannot be a new version of the document named `documentName`, or null when it
 * can. A new version keeps the document's name, so it must be a file of the same type: a PDF
 * in place of "Handbook.docx" would be previewed, downloaded and e-mailed as a Word file.
 */
export function newVersionProblem(documentName: string, fileName: string): string | null {
  const expected = fileExtension(documentName);
  if (!expected || fileExtension(fileName) === expected) return null;
  return `Choose a .${expected} file: a new version keeps the name “${documentName}”.`;
}
