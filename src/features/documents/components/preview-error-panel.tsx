import { AlertTriangle, Download } from 'lucide-react';

/** The spec's "Unable to load document" panel (§8), with the reason and a Download File button. */
export function PreviewErrorPanel({
  message,
  onDownload,
}: {
  message: string;
  onDownload: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-6 py-10 text-center"
    >
      <AlertTriangle className="h-10 w-10 text-red-500" aria-hidden="true" />
      <h3 className="text-base font-semibold text-gray-900">Unable to load document</h3>
      <p className="text-sm text-gray-700">{message}</p>
      <button
        type="button"
        onClick={onDownload}
        className="inline-flex items-center gap-2 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        <Download className="h-4 w-4" aria-hidden="true" />
        Download File
      </button>
    </div>
  );
}
