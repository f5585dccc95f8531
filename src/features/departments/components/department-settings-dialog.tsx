import { FileText, Upload } from 'lucide-react';
import { Modal } from '../../../components/ui/modal.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
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
        <DialogActions className="">
          <ButtonLink to={paths.documents} variant="secondary" icon={FileText}>
            Open Documents
          </ButtonLink>
          <ButtonLink to={paths.upload} icon={Upload}>
            Upload Documents
          </ButtonLink>
        </DialogActions>
      </div>
    </Modal>
  );
}
