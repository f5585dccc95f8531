import { RotateCcw, Trash2 } from 'lucide-react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useFeedback } from '../../components/feedback.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { formatDate, formatDateTime, formatFileSize } from '../../lib/format.ts';
import { useDocumentAccess } from '../../lib/document-categories.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import {
  TRASH_PAGE_SIZE,
  useTrash,
  useTrashAction,
  type TrashAction,
  type TrashEntry,
} from './api/trash.ts';
import { Card } from '../../components/ui/card.tsx';

const documentsCount = (n: number) => (n === 1 ? '1 document' : `${n} documents`);

/**
 * `/trash`: the organisation's deleted documents, most recently deleted first, with who deleted
 * each and when it will be deleted for ever. Every member can restore; admins can delete for
 * ever, one document or the whole trash, after a confirmation. The database decides who may
 * do what; the page only leaves out buttons that would be refused.
 */
export function TrashPage() {
  const { profile } = useSession();
  const isAdmin = isAdminRole(profile?.role);
  // A Viewer restores nothing; others restore what they may edit.
  const access = useDocumentAccess();
  const trash = useTrash();
  const action = useTrashAction();
  const { confirm } = useFeedback();
  const entries = trash.data ?? [];

  async function run(request: TrashAction, question?: string) {
    if (question) {
      const confirmed = await confirm(question, {
        confirmLabel: 'Delete for ever',
        destructive: true,
      });
      if (!confirmed) return;
    }
    action.mutate(request);
  }

  const busyOn = (entry: TrashEntry) =>
    action.isPending &&
    (action.variables.kind === 'empty' || action.variables.ids.includes(entry.id));

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-semibold text-gray-900">
            <Trash2 className="h-6 w-6 text-gray-500" aria-hidden="true" /> Trash
          </h1>
          <p className="text-sm text-gray-600">
            Deleted documents stay here with their files until they are deleted for ever. Anyone in
            your organization can restore them.
          </p>
        </div>
        {isAdmin && entries.length > 0 && (
          <Button
            variant="destructive"
            busy={action.isPending && action.variables.kind === 'empty'}
            busyLabel="Emptying..."
            onClick={() =>
              void run(
                { kind: 'empty' },
                `Are you sure you want to delete all ${documentsCount(entries.length)} in the trash for ever?`,
              )
            }
          >
            Empty trash
          </Button>
        )}
      </div>
      {trash.isPending && <Spinner label="Loading the trash..." />}
      {trash.isError && (
        <ErrorPanel title={`The trash could not be loaded: ${errorMessage(trash.error)}`} />
      )}
      {trash.isSuccess && entries.length === 0 && (
        <p className="text-sm text-gray-600">The trash is empty.</p>
      )}
      {entries.length > 0 && (
        <Card
          as="ul"
          padding="none"
          aria-label="Deleted documents"
          className="divide-y divide-gray-100"
        >
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="truncate font-medium text-gray-900">{entry.name}</p>
                <p className="text-xs text-gray-500">
                  {entry.category} · {formatFileSize(entry.size)} · Deleted by{' '}
                  {entry.deleted_by_name ?? 'a former member'} on {formatDateTime(entry.deleted_at)}{' '}
                  · Deleted for ever on {formatDate(entry.purge_at)}
                </p>
              </div>
              <span className="flex shrink-0 gap-2">
                {access.mayEdit(entry.category) && (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busyOn(entry)}
                    aria-label={`Restore ${entry.name}`}
                    onClick={() => void run({ kind: 'restore', ids: [entry.id] })}
                  >
                    <RotateCcw className="h-4 w-4" aria-hidden="true" /> Restore
                  </Button>
                )}
                {isAdmin && (
                  <Button
                    size="sm"
                    variant="destructive"
                    disabled={busyOn(entry)}
                    aria-label={`Delete ${entry.name} for ever`}
                    onClick={() =>
                      void run(
                        { kind: 'purge', ids: [entry.id] },
                        `Are you sure you want to delete "${entry.name}" for ever?`,
                      )
                    }
                  >
                    Delete for ever
                  </Button>
                )}
              </span>
            </li>
          ))}
        </Card>
      )}
      {entries.length === TRASH_PAGE_SIZE && (
        <p className="text-sm text-gray-600">
          The {TRASH_PAGE_SIZE} most recently deleted documents are shown; restore or delete some to
          see the others.
        </p>
      )}
    </div>
  );
}
