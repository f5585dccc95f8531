import { FolderOpen, Upload } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { paths } from '../../../config/paths.ts';

/** The empty table: no documents at all (spec text), or none matching the filters. */
export function DocumentsEmpty({
  filtered,
  mayUpload = true,
}: {
  filtered: boolean;
  /** False for a Viewer: the spec's line stays, the button does not. */
  mayUpload?: boolean;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-gray-300 bg-white px-6 py-16 text-center">
      <FolderOpen className="h-10 w-10 text-gray-400" aria-hidden="true" />
      {filtered ? (
        <p className="text-sm text-gray-600">No documents match your search.</p>
      ) : (
        <>
          <p className="text-sm text-gray-600">
            No documents found. Upload your first document to get started!
          </p>
          {mayUpload && (
            <ButtonLink to={paths.upload} icon={Upload}>
              Upload Documents
            </ButtonLink>
          )}
        </>
      )}
    </div>
  );
}
