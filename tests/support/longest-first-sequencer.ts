import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that take longest, longest first (measured with `--reporter=json`). Vitest
 * starts the files it has timed longest first, but a fresh clone (CI) has no timings, and vitest
 * then starts the largest files first; the parts of the security matrix are small files that
 * run for minutes, so they would start last and the whole run would wait for them.
 */
const LONGEST = [
  'tests/security/matrix-files.test.ts',
  'tests/security/matrix-tables.test.ts',
  'tests/security/matrix-documents.test.ts',
  'tests/security/matrix-category-access.test.ts',
  'tests/security/matrix-rpc.test.ts',
  'tests/security/matrix-accounts.test.ts',
  'tests/security/matrix-mail.test.ts',
  'tests/backend/office-previews.test.ts',
  'tests/backend/office-preview-limits.test.ts',
  'tests/backend/s3-file-store.test.ts',
  'tests/backend/consistency.test.ts',
  'tests/backend/schema-drift.test.ts',
  'tests/backend/document-requests.test.ts',
  'tests/backend/extraction-bounds.test.ts',
  'tests/backend/rest-fuzz.test.ts',
  'tests/backend/backup.test.ts',
  'tests/backend/search-bounds.test.ts',
  'tests/backend/reminders.test.ts',
  'tests/backend/auth-rate-limit.test.ts',
  'tests/backend/file-modes.test.ts',
  'tests/backend/text-extraction.test.ts',
  'tests/backend/durability.test.ts',
  'tests/backend/document-files-kept.test.ts',
  'tests/backend/storage-fuzz.test.ts',
  // The S3 pass's longest, which it started last by size (organization-transfer 27 s from 28 s
  // in, in a pass of 58 s on a quiet machine).
  'tests/backend/organization-transfer.test.ts',
  'tests/backend/document-text.test.ts',
  'tests/backend/mail.test.ts',
  // The app's longest file.
  'src/features/documents/documents-page.test.tsx',
];

/** Vitest's own order (projects one after another), with the longest files of each first. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projectOrder = new Map<string, number>();
    sorted.forEach((file, index) => {
      if (!projectOrder.has(file.project.name)) projectOrder.set(file.project.name, index);
    });
    const rank = (file: TestSpecification) => {
      const found = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return found === -1 ? LONGEST.length : found;
    };
    return sorted
      .map((file, index) => ({
        file,
        key: [projectOrder.get(file.project.name)!, rank(file), index],
      }))
      .sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || a.key[2]! - b.key[2]!)
      .map(({ file }) => file);
  }
}
