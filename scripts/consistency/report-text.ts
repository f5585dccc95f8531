import type { ConsistencyReport, FixResult } from './check.ts';
import type { Aged } from './compare.ts';

const number = (value: number) => value.toLocaleString('en-US');

function age(seconds: number | null): string {
  if (seconds === null) return 'age unknown';
  if (seconds < 90) return `${Math.round(seconds)} s old`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min old`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h old`;
  return `${Math.round(seconds / 86_400)} days old`;
}

function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${(value / 1024 / 1024).toFixed(1)} MB`;
}

/** A titled section: the count, then at most `limit` items, then what to do about them. */
function section(title: string, items: string[], limit: number, advice: string): string[] {
  if (items.length === 0) return [`${title}: 0`];
  const shown = items.slice(0, limit).map((item) => `  - ${item}`);
  if (items.length > limit) shown.push(`  … and ${number(items.length - limit)} more (--limit)`);
  return [`${title}: ${number(items.length)}`, ...shown, `  What to do: ${advice}`];
}

const agedName = <T>(list: Aged<T>[], name: (item: T) => string) =>
  list.map(({ item, ageSeconds }) => `${name(item)} (${age(ageSeconds)})`);

/** The report as plain text for an administrator. */
export function formatReport(
  report: ConsistencyReport,
  options: { limit: number; fix?: { result: FixResult; after: ConsistencyReport } },
): string {
  const { findings, counts } = report;
  const lines = [
    `Steward consistency check`,
    `Rows: ${report.source}. Files: ${report.diskNote}.`,
    `Checked ${number(counts.documents)} documents, ${number(counts.objects)} stored objects ` +
      `(buckets: ${counts.buckets.join(', ') || 'none'})` +
      (counts.files === null ? '.' : ` and ${number(counts.files)} files on disk.`),
    '',
    ...section(
      'Documents whose file is missing',
      findings.documentsWithoutFile.map(
        ({ document, reason }) =>
          `"${document.name}" (document ${document.id}, organisation ${document.organizationId}): ` +
          (reason === 'no-object'
            ? `no stored object ${document.filePath}`
            : `the stored object ${document.filePath} has no file on disk`),
      ),
      options.limit,
      'these documents cannot be previewed or downloaded. Upload the file again, or delete the document in Steward. The check never changes them.',
    ),
    ...section(
      'Documents whose recorded size differs from their file',
      findings.sizeMismatches.map(
        ({ document, objectSize }) =>
          `"${document.name}" (document ${document.id}): recorded ${number(document.size)} bytes, file ${number(objectSize)} bytes`,
      ),
      options.limit,
      'the file was replaced but the new size was not saved (for example, the server stopped in between). Open the document and save its content again.',
    ),
    ...section(
      'Stored files with no document (documents bucket)',
      agedName(findings.orphanObjects, (object) => object.name),
      options.limit,
      'an upload whose document was never saved (the browser uploads the file first, then saves the document). They are invisible in the app; --fix removes them.',
    ),
    ...section(
      'Storage objects whose file is missing on disk',
      findings.objectsWithoutFile.map(
        (object) => `${object.bucketId}: ${object.name} (version ${object.version ?? 'unknown'})`,
      ),
      options.limit,
      'the bytes were lost outside Steward (deleted, or a restore without the storage folder). Restore the storage folder from a backup, or upload the files again.',
    ),
    ...section(
      'Files on disk that no storage object points to',
      findings.orphanFiles.map(
        ({ item, ageSeconds }) => `${item.path} (${bytes(item.bytes)}, ${age(ageSeconds)})`,
      ),
      options.limit,
      'left by a write that was interrupted. The server removes them when it next starts; --fix removes them now.',
    ),
    ...section(
      "Organisations whose storage total differs from their files (the quota's count)",
      findings.storageTotalDrifts.map(
        (drift) =>
          `organisation ${drift.organizationId}: counted ${number(drift.recorded)} bytes, its files take ${number(drift.counted)} bytes`,
      ),
      options.limit,
      'the running total the storage quota reads was changed outside Steward (or by a bug). --fix counts it again from the files.',
    ),
  ];
  const overlap = findings.documentsWithoutFile.filter((f) => f.reason === 'no-file').length;
  if (overlap > 0) {
    lines.push(
      `(${number(overlap)} of the objects whose file is missing belong to the documents listed first.)`,
    );
  }
  const recent = findings.recent.objects.length + findings.recent.files.length;
  if (recent > 0) {
    lines.push(
      '',
      `Not counted: ${number(recent)} stored file(s) without a row, younger than ${number(
        report.graceSeconds / 60,
      )} minutes (--grace-minutes); they may belong to an upload still in progress.`,
      ...agedName(findings.recent.objects, (object) => `  - ${object.bucketId}: ${object.name}`),
      ...agedName(findings.recent.files, (file) => `  - ${file.path}`),
    );
  }
  if (findings.unknownFileState.length > 0) {
    lines.push(
      '',
      `Could not tell whether ${number(findings.unknownFileState.length)} object(s) still have their file (the server did not answer the probe).`,
    );
  }
  lines.push('');
  const final = options.fix?.after ?? report;
  if (options.fix) {
    const { result } = options.fix;
    lines.push(
      `Fixed: removed ${number(result.objectsRemoved)} stored file(s) with no document and ${number(result.filesRemoved)} unreferenced file(s) on disk, recounted ${number(result.totalsRecounted)} storage total(s); checked again.`,
    );
  }
  lines.push(
    final.problems === 0
      ? 'Result: consistent.'
      : `Result: ${number(final.problems)} inconsistenc${final.problems === 1 ? 'y' : 'ies'} found.`,
  );
  return lines.join('\n');
}
