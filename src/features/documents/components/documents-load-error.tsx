import { AlertTriangle } from 'lucide-react';

/** The load failure of the documents page (spec §2), with the backend note and a retry. */
export function DocumentsLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6">
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-red-500" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-medium break-words text-red-800">Error loading documents: {message}</p>
          <p className="mt-1 text-sm text-red-700">
            The documents could not be loaded. Please make sure the backend is configured and
            running, then try again.
          </p>
          <button
            type="button"
            onClick={onRetry}
            className="mt-3 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-100"
          >
            Try again
          </button>
        </div>
      </div>
    </div>
  );
}
