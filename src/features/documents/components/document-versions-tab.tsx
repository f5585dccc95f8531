import { useFeedback } from '../../../components/feedback.tsx';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useDocumentVersions, type DocumentVersion } from '../api/document-versions.ts';
import { useRestoreDocumentVersion } from '../api/restore-version.ts';
import { EarlierVersions } from './earlier-versions.tsx';

/**
 * A document's Versions tab: its earlier files, downloadable and restorable. Restoring asks
 * first, and keeps the current file as a version in turn; only for those who may edit it.
 */
export function DocumentVersionsTab({
  document,
  canRestore = true,
}: {
  document: Pick<DocumentRecord, 'id' | 'organization_id' | 'name'>;
  canRestore?: boolean;
}) {
  const versions = useDocumentVersions(document.id);
  const restore = useRestoreDocumentVersion(document);
  const { confirm } = useFeedback();

  async function onRestore(version: DocumentVersion) {
    const confirmed = await confirm(
      `Restore version ${version.version_number} of "${document.name}"? The current file will be kept as an earlier version.`,
      { confirmLabel: 'Restore' },
    );
    if (confirmed) restore.mutate(version);
  }

  return (
    <EarlierVersions
      versions={versions.data ?? []}
      loading={versions.isPending}
      error={versions.isError ? errorMessage(versions.error) : null}
      onRestore={canRestore ? (version) => void onRestore(version) : undefined}
      restoring={restore.isPending ? restore.variables.id : null}
    />
  );
}
