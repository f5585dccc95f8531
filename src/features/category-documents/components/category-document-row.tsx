import { Download, Eye, Mail } from 'lucide-react';
import { TagList } from '../../../components/tag-list.tsx';
import { RestrictedLock } from '../../../components/restricted-lock.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ExpiryDate } from '../../../components/expiry-date.tsx';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { formatDate, formatFileSize } from '../../../lib/format.ts';

export interface CategoryDocumentRowProps {
  document: DocumentRecord;
  selected: boolean;
  onToggle: (document: DocumentRecord) => void;
  onView: (document: DocumentRecord) => void;
  onDownload: (document: DocumentRecord) => void;
  /** Without it (a Viewer), no Email. */
  onEmail?: (document: DocumentRecord) => void;
  /** Its category is restricted: the row shows the lock. */
  restricted?: boolean;
}

/** One document of a category document list: select box, details and View/Download/Email. */
export function CategoryDocumentRow({
  document,
  selected,
  onToggle,
  onView,
  onDownload,
  onEmail,
  restricted = false,
}: CategoryDocumentRowProps) {
  return (
    <li className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <Checkbox
          className="mt-0.5"
          checked={selected}
          onChange={() => onToggle(document)}
          label={`Select ${document.name}`}
          hideLabel
        />
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-1.5 font-medium text-gray-900">
            <span className="truncate" title={document.name}>
              {document.name}
            </span>
            {restricted && <RestrictedLock />}
          </p>
          {document.description && (
            <p className="truncate text-sm text-gray-600" title={document.description}>
              {document.description}
            </p>
          )}
          <p className="text-xs text-gray-500">
            {document.category} · {formatFileSize(document.size)} · Uploaded{' '}
            {formatDate(document.upload_date)}
          </p>
          {document.expiry_date && (
            <p className="text-xs">
              <span className="sr-only">Expiry date: </span>
              <ExpiryDate date={document.expiry_date} />
            </p>
          )}
          <TagList tags={document.tags} />
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2 pl-7 sm:pl-0">
        <Button
          variant="secondary"
          size="sm"
          icon={Eye}
          onClick={() => onView(document)}
          aria-label={`View ${document.name}`}
        >
          View
        </Button>
        <Button
          variant="secondary"
          size="sm"
          icon={Download}
          onClick={() => onDownload(document)}
          aria-label={`Download ${document.name}`}
        >
          Download
        </Button>
        {onEmail && (
          <Button
            variant="secondary"
            size="sm"
            icon={Mail}
            onClick={() => onEmail(document)}
            aria-label={`Email ${document.name}`}
          >
            Email
          </Button>
        )}
      </div>
    </li>
  );
}
