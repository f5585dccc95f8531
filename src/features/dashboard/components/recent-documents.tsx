import { FileText, Upload } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { formatDate, formatFileSize } from '../../../lib/format.ts';
import type { DashboardDocument } from '../api/dashboard-document.ts';
import { DashboardPanel } from './dashboard-panel.tsx';

/** The five newest documents, View all, and an empty state linking to /upload (spec §2). */
export function RecentDocuments({
  documents,
  onOpen,
}: {
  documents: DashboardDocument[];
  onOpen: (document: DashboardDocument) => void;
}) {
  return (
    <DashboardPanel
      id="recent-documents-heading"
      title="Recent Documents"
      linkText="View all"
      linkTo={paths.documents}
    >
      {documents.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
          <FileText className="h-8 w-8 text-gray-400" aria-hidden="true" />
          <p className="text-sm text-gray-600">No documents yet.</p>
          <Link
            to={paths.upload}
            className="inline-flex items-center gap-1.5 text-sm font-medium text-primary-700 hover:text-primary-800"
          >
            <Upload className="h-4 w-4" aria-hidden="true" />
            Upload your first document
          </Link>
        </div>
      ) : (
        <ul className="divide-y divide-gray-100">
          {documents.map((document) => (
            <li key={document.id}>
              <button
                type="button"
                onClick={() => onOpen(document)}
                className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-600"
              >
                <FileText className="h-5 w-5 shrink-0 text-primary-500" aria-hidden="true" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-gray-900">
                    {document.name}
                  </span>
                  <span className="block text-xs text-gray-500">
                    {document.category} · {formatFileSize(document.size)}
                  </span>
                </span>
                <span className="shrink-0 text-xs text-gray-500">
                  {formatDate(document.created_at)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </DashboardPanel>
  );
}
