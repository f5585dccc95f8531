import { ImageUp } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useLogoUpload } from '../hooks/use-logo-upload.ts';

export interface LogoUploadDialogProps {
  organizationId: string;
  onClose: () => void;
}

/**
 * Lets an admin replace the organisation's logo with an SVG under 1MB (spec §2, §5), or a PNG,
 * JPEG or WebP image under 5MB that the server resizes (issue 24).
 */
export function LogoUploadDialog({ organizationId, onClose }: LogoUploadDialogProps) {
  const { file, problem, uploading, choose, upload } = useLogoUpload(organizationId);

  return (
    <Modal title="Upload Custom Logo" onClose={onClose} dismissible={!uploading}>
      <p className="text-sm text-gray-600">
        The logo replaces the name in the navigation bar for everyone in your organization.
      </p>
      <FormField
        label="Logo file"
        hint="SVG (less than 1MB), or PNG, JPEG or WebP (less than 5MB). Recommended height: 24-32px."
        error={problem}
        className="mt-4"
      >
        {(field) => (
          <FileDrop
            {...field}
            accept=".svg,image/svg+xml,.png,image/png,.jpg,.jpeg,image/jpeg,.webp,image/webp"
            chosen={file}
            disabled={uploading}
            onFiles={([chosen]) => chosen && choose(chosen)}
          />
        )}
      </FormField>
      <DialogActions>
        <Button variant="secondary" onClick={onClose} disabled={uploading}>
          Cancel
        </Button>
        <Button
          icon={ImageUp}
          onClick={() => upload(onClose)}
          disabled={!file}
          busy={uploading}
          busyLabel="Uploading..."
        >
          Upload Logo
        </Button>
      </DialogActions>
    </Modal>
  );
}
