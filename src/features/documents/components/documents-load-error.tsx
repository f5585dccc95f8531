import { Button } from '../../../components/ui/button.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';

/** The load failure of the documents page (spec §2), with the backend note and a retry. */
export function DocumentsLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <ErrorPanel
      title={`Error loading documents: ${message}`}
      actions={
        <Button variant="destructive-outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      The documents could not be loaded. Please make sure the backend is configured and running,
      then try again.
    </ErrorPanel>
  );
}
