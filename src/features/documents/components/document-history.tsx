import { ActivityList } from '../../../components/activity-list.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useDocumentHistory } from '../api/document-history.ts';

/** A document's History tab: every change the database recorded, newest first. */
export function DocumentHistory({ documentId }: { documentId: string }) {
  const history = useDocumentHistory(documentId);
  if (history.isPending) return <Spinner label="Loading the history..." />;
  if (history.isError) {
    return <ErrorPanel title={`The history could not be loaded: ${errorMessage(history.error)}`} />;
  }
  if (history.data.length === 0) {
    return <p className="text-sm text-gray-600">No changes recorded yet.</p>;
  }
  return <ActivityList entries={history.data} label="History" />;
}
