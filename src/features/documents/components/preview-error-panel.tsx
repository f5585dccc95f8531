import { Download } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';

/** The spec's "Unable to load document" panel (§8), with the reason and a Download File button. */
export function PreviewErrorPanel({
  message,
  onDownload,
}: {
  message: string;
  onDownload: () => void;
}) {
  return (
    <ErrorPanel
      layout="centered"
      heading
      title="Unable to load document"
      actions={
        <Button icon={Download} onClick={onDownload}>
          Download File
        </Button>
      }
    >
      {message}
    </ErrorPanel>
  );
}
