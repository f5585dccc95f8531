import { FileText, Upload } from 'lucide-react';
import { Modal } from '../../../components/ui/modal.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import type { DepartmentDetails } from '../../../config/department-details.ts';
import { paths } from '../../../config/paths.ts';

/**
 * Department Settings: what decides which documents this page shows (the categories and tags
 * admins choose in Settings), and how a document gets here.
 */
export function DepartmentSettingsDialog({
  department,
  categories,
  tags,
  onClose,
}: {
  department: DepartmentDetails;
  categories: readonly string[];
  tags: readonly string[];
  onClose: () => void;
}) {
  return (
    <Modal title="Department Settings" onClose={onClose}>
      <div className="space-y-4 text-sm text-gray-700">
        <p>
          Documents appear on the {department.title} page when
          {categories.length > 0 && (
            <>
              {' '}
              their category is <strong>{categories.join(', ')}</strong>
              {tags.length > 0 && ' or'}
            </>
          )}
          {tags.length > 0 && (
            <>
              {' '}
              one of their tags is <strong>{tags.join(', ')}</strong>
            </>
          )}
          {categories.length === 0 &&
            tags.length === 0 &&
            ' an admin chooses their categories or tags in Settings'}
          .
        </p>
        <p>
          Choose the category or add one of these tags when you upload a document, or later with
          Edit Properties on the Documents page. Admins change them in Settings. Everyone in your
          organization sees the same department pages.
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
