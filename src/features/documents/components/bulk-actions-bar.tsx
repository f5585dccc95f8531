import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import { categoryOptionLabel } from '../../../components/restricted-lock.tsx';
import { pickerCategories, useDocumentCategories } from '../../../lib/document-categories.ts';
import { parseTags } from '../../../lib/tags.ts';
import { useBulkAction, useDownloadDocumentsZip, type BulkAction } from '../api/bulk-actions.ts';
import type { SearchedDocument } from '../api/search-documents.ts';

const count = (n: number) => `${n} ${n === 1 ? 'document' : 'documents'}`;

/**
 * What can be done to the selected documents at once: set the category, add or remove tags, set
 * or clear the expiry date, download them as one ZIP, e-mail them (where the page can), delete
 * them (after one question naming how many). A Viewer (`readOnly`) may only download them.
 */
export function BulkActionsBar({
  documents,
  onDone,
  onEmail,
  readOnly = false,
}: {
  documents: SearchedDocument[];
  onDone: () => void;
  /** E-mails the selected documents, where the page can. */
  onEmail?: (documents: readonly SearchedDocument[]) => void;
  readOnly?: boolean;
}) {
  const categories = useDocumentCategories();
  const { confirm } = useFeedback();
  const bulk = useBulkAction();
  const zip = useDownloadDocumentsZip();
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState('');
  const [expiry, setExpiry] = useState('');
  const ids = documents.map((document) => document.id);
  const busy = bulk.isPending || zip.isPending;

  async function run(action: BulkAction) {
    if (action.kind === 'delete') {
      const confirmed = await confirm(`Are you sure you want to delete ${count(ids.length)}?`, {
        confirmLabel: 'Delete',
        destructive: true,
      });
      if (!confirmed) return;
    }
    bulk.mutate(
      { ids, action },
      {
        onSuccess: () => {
          setTags('');
          onDone();
        },
      },
    );
  }

  return (
    <section
      aria-label="Selected documents"
      className="flex flex-wrap items-end gap-3 rounded-lg border border-primary-200 bg-primary-50 p-3 text-sm"
    >
      <p className="w-full font-medium text-gray-900">{count(ids.length)} selected</p>
      {!readOnly && (
        <>
          <FormField label="Category for the selected documents" hideLabel>
            {(props) => (
              <Select
                {...props}
                value={category}
                onChange={(event) => setCategory(event.target.value)}
              >
                <option value="">Set category…</option>
                {pickerCategories(categories.data ?? []).map((option) => (
                  <option key={option.id} value={option.name}>
                    {categoryOptionLabel(option)}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy || !category}
            onClick={() => void run({ kind: 'category', category })}
          >
            Set Category
          </Button>
          <FormField label="Tags for the selected documents" hideLabel>
            {(props) => (
              <Input
                {...props}
                value={tags}
                onChange={(event) => setTags(event.target.value)}
                placeholder="Tags, comma-separated"
              />
            )}
          </FormField>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy || parseTags(tags).length === 0}
            onClick={() => void run({ kind: 'add-tags', tags: parseTags(tags) })}
          >
            Add Tags
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy || parseTags(tags).length === 0}
            onClick={() => void run({ kind: 'remove-tags', tags: parseTags(tags) })}
          >
            Remove Tags
          </Button>
          <FormField label="Expiry date for the selected documents" hideLabel>
            {(props) => (
              <Input
                {...props}
                type="date"
                value={expiry}
                onChange={(event) => setExpiry(event.target.value)}
              />
            )}
          </FormField>
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => void run({ kind: 'expiry', expiryDate: expiry || null })}
          >
            {expiry ? 'Set Expiry Date' : 'Clear Expiry Date'}
          </Button>
        </>
      )}
      <Button
        variant="secondary"
        size="sm"
        busy={zip.isPending}
        busyLabel="Preparing..."
        onClick={() => zip.mutate(ids)}
        disabled={busy}
      >
        Download ZIP
      </Button>
      {onEmail && (
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => onEmail(documents)}>
          Email Selected
        </Button>
      )}
      {!readOnly && (
        <Button
          variant="destructive"
          size="sm"
          disabled={busy}
          onClick={() => void run({ kind: 'delete' })}
        >
          Delete
        </Button>
      )}
    </section>
  );
}
