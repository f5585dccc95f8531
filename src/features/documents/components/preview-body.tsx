import { Download, FileQuestion, FileText } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import type { DocumentPreviewState } from '../hooks/use-document-preview.ts';

export interface PreviewBodyProps {
  name: string;
  preview: DocumentPreviewState;
  onDisplayError: () => void;
  onDownload: () => void;
}

/**
 * The preview itself, by kind (spec §2 Preview modal, §5 preview type mapping). Word and Excel
 * files are shown as Steward renders them, in a sandboxed frame that may run nothing (the
 * "Open in Office Online" link sent a one-hour signed link of the member's file to Microsoft
 * without saying so, and could not work on a private installation: issue 25); older Office
 * formats are offered for download.
 */
export function PreviewBody({ name, preview, onDisplayError, onDownload }: PreviewBodyProps) {
  const { kind, objectUrl, frameUrl, text } = preview;
  switch (kind) {
    case 'pdf':
      return (
        <iframe
          data-testid="preview-media"
          src={frameUrl ?? objectUrl ?? undefined}
          title={`Preview of ${name}`}
          className="h-[70vh] w-full rounded border border-gray-200"
        />
      );
    case 'image':
      return (
        <div className="flex justify-center">
          <img
            data-testid="preview-media"
            src={objectUrl ?? undefined}
            alt={name}
            onError={onDisplayError}
            className="max-h-[70vh] max-w-full object-contain"
          />
        </div>
      );
    case 'video':
      return (
        <video
          data-testid="preview-media"
          src={objectUrl ?? undefined}
          controls
          onError={onDisplayError}
          aria-label={name}
          className="max-h-[70vh] w-full rounded bg-black"
        />
      );
    case 'audio':
      return (
        <div className="flex justify-center py-8">
          <audio
            data-testid="preview-media"
            src={objectUrl ?? undefined}
            controls
            onError={onDisplayError}
            aria-label={name}
          />
        </div>
      );
    case 'text':
      return (
        <pre
          tabIndex={0}
          aria-label={`Content of ${name}`}
          className="max-h-[70vh] overflow-auto rounded border border-gray-200 bg-gray-50 p-4 font-mono text-sm whitespace-pre-wrap text-gray-800"
        >
          {text}
        </pre>
      );
    case 'office':
      if (frameUrl) {
        return (
          <iframe
            data-testid="preview-office"
            src={frameUrl}
            sandbox=""
            title={name}
            className="h-[70vh] w-full rounded border border-gray-200 bg-white"
          />
        );
      }
      return (
        <div className="flex flex-col items-center gap-3 px-4 py-10 text-center">
          <FileText className="h-12 w-12 text-blue-500" aria-hidden="true" />
          <h3 className="text-base font-semibold text-gray-900">Office document</h3>
          <p className="max-w-md text-sm text-gray-600">
            Only Word (.docx) and Excel (.xlsx) files can be shown here. Download the file to open
            it on your computer.
          </p>
          <Button icon={Download} onClick={onDownload}>
            Download File
          </Button>
        </div>
      );
    default:
      return (
        <div className="flex flex-col items-center gap-3 px-4 py-10 text-center">
          <FileQuestion className="h-12 w-12 text-gray-400" aria-hidden="true" />
          <h3 className="text-base font-semibold text-gray-900">Preview not available</h3>
          <p className="max-w-md text-sm text-gray-600">
            This type of file can’t be previewed. Download it to open it on your computer.
          </p>
          <Button icon={Download} onClick={onDownload}>
            Download File
          </Button>
        </div>
      );
  }
}
