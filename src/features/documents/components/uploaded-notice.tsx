import { Button } from '../../../components/ui/button.tsx';
import type { UploadedDocument } from '../utils/uploaded-documents.ts';

/** Names listed in the notice; more are counted. */
const NAMES_SHOWN = 5;

/** "a.pdf", "a.pdf and b.pdf", "a.pdf, b.pdf and 3 more". */
function namesOf(documents: readonly UploadedDocument[]): string {
  const names = documents.slice(0, NAMES_SHOWN).map((document) => document.name);
  const more = documents.length - names.length;
  if (more > 0) return `${names.join(', ')} and ${more} more`;
  if (names.length === 1) return names[0]!;
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The confirmation of an upload above the documents list: what was uploaded, and that those
 * rows are marked New. Dismissing it removes the marks.
 */
export function UploadedNotice({
  documents,
  onDismiss,
}: {
  documents: readonly UploadedDocument[];
  onDismiss: () => void;
}) {
  const count = documents.length;
  return (
    <div
      role="status"
      data-tone="success"
      className="flex flex-col gap-2 rounded-md bg-tone-50 px-4 py-3 text-sm text-tone-800 sm:flex-row sm:items-center sm:justify-between"
    >
      <p>
        {count === 1 ? '1 document was uploaded' : `${count} documents were uploaded`}:{' '}
        {namesOf(documents)}. {count === 1 ? 'It is' : 'They are'} marked New in the list.
      </p>
      <Button variant="secondary" size="sm" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
