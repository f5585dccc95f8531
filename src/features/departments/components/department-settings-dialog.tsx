import { FileText, Upload } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Modal } from '../../../components/modal.tsx';
import type { DepartmentDetails } from '../../../config/department-details.ts';
import { paths } from '../../../config/paths.ts';

/**
 * Department Settings: what decides which documents this page shows, and where to change it.
 * A department has no stored settings of its own; its page is shaped by the documents' tags.
 */
export function DepartmentSettingsDialog({
  department,
  onClose,
}: {
  department: DepartmentDetails;
  onClose: () => void;
}) {
  return (
    <Modal title="Department Settings" onClose={onClose}>
      <div className="space-y-4 text-sm text-gray-700">
        <p>
          Documents appear on the {department.title} page when one of their tags is{' '}
          <strong>{department.key}</strong> or <strong>{department.label}</strong>.
        </p>
        <p>
          Add one of these tags when you upload a document, or later with Edit Properties on the
          Documents page. Everyone in your organization sees the same department pages.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Link
            to={paths.documents}
            className="inline-flex items-center justify-center gap-1.5 rounded-md border border-gray-300 px-4 py-2 font-medium text-gray-700 hover:bg-gray-50"
          >
            <FileText className="h-4 w-4" aria-hidden="true" />
            Open Documents
          </Link>
          <Link
            to={paths.upload}
            className="inline-flex items-center justify-center gap-1.5 rounded-md bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700"
          >
            <Upload className="h-4 w-4" aria-hidden="true" />
            Upload Documents
          </Link>
        </div>
      </div>
    </Modal>
  );
}
