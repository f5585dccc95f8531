import { ImageUp } from 'lucide-react';
import { useId, useRef, type ChangeEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useLogoUpload } from '../hooks/use-logo-upload.ts';

export interface LogoUploadDialogProps {
  organizationId: string;
  onClose: () => void;
}

/** Lets an admin replace the organisation's logo with an SVG under 1MB (spec §2, §5). */
export function LogoUploadDialog({ organizationId, onClose }: LogoUploadDialogProps) {
  const { file, uploading, choose, upload } = useLogoUpload(organizationId);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const accepted = await choose(event.target.files?.[0] ?? null);
    // A refused file must not stay selected in the picker.
    if (!accepted && inputRef.current) inputRef.current.value = '';
  };

  const onUpload = async () => {
    if (await upload()) onClose();
  };

  return (
    <Modal title="Upload Custom Logo" onClose={onClose} dismissible={!uploading}>
      <p className="text-sm text-gray-600">
        The logo replaces the name in the navigation bar for everyone in your organization.
      </p>
      <div className="mt-4">
        <label htmlFor={inputId} className="block text-sm font-medium text-gray-700">
          Logo file
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept=".svg,image/svg+xml"
          aria-describedby={hintId}
          onChange={(event) => void onChange(event)}
          disabled={uploading}
          className="mt-1 block w-full text-sm text-gray-700 file:mr-3 file:rounded-md file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-primary-700 hover:file:bg-primary-100"
        />
        <p id={hintId} className="mt-2 text-xs text-gray-500">
          SVG files only, less than 1MB. Recommended height: 24-32px.
        </p>
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={uploading}>
          Cancel
        </Button>
        <Button
          icon={ImageUp}
          onClick={() => void onUpload()}
          disabled={!file}
          busy={uploading}
          busyLabel="Uploading..."
        >
          Upload Logo
        </Button>
      </div>
    </Modal>
  );
}
