import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { documentsAdded } from '../api/document-cache.ts';
import type { DocumentProperties } from '../../../lib/documents.ts';
import { uploadDocument } from '../api/upload-documents.ts';

export type UploadState = 'queued' | 'uploading' | 'done' | 'failed';

export interface QueuedFile {
  key: string;
  file: File;
  state: UploadState;
  /** Why the upload failed. */
  error: string | null;
}

export interface UploadOutcome {
  succeeded: QueuedFile[];
  failed: QueuedFile[];
}

/** Files uploaded at the same time: enough to overlap round trips, few enough to stay gentle. */
const PARALLEL_UPLOADS = 3;

let nextKey = 0;

/**
 * The selected files and their upload state: queued, uploading, done or failed (with the
 * reason). Uploading skips files already done, so after a partial failure a second try sends
 * only the files that failed. What was uploaded appears in every list of documents.
 */
export function useUploadQueue() {
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<QueuedFile[]>([]);
  const [running, setRunning] = useState(false);

  const add = useCallback((incoming: Iterable<File>) => {
    const added = Array.from(incoming, (file) => ({
      key: `file-${(nextKey += 1)}`,
      file,
      state: 'queued' as const,
      error: null,
    }));
    if (added.length) setFiles((previous) => [...previous, ...added]);
  }, []);

  const remove = useCallback((key: string) => {
    setFiles((previous) => previous.filter((item) => item.key !== key));
  }, []);

  /** Uploads every file not yet done; resolves with what succeeded and what failed. */
  const upload = useCallback(
    async (properties: DocumentProperties, organizationId: string): Promise<UploadOutcome> => {
      const pending = files.filter((item) => item.state !== 'done');
      const setState = (key: string, state: UploadState, error: string | null = null) =>
        setFiles((previous) =>
          previous.map((item) => (item.key === key ? { ...item, state, error } : item)),
        );
      setRunning(true);
      const succeeded: QueuedFile[] = [];
      const failed: QueuedFile[] = [];
      for (const item of pending) setState(item.key, 'queued');
      let next = 0;
      async function worker() {
        while (next < pending.length) {
          const item = pending[next]!;
          next += 1;
          setState(item.key, 'uploading');
          try {
            await uploadDocument(item.file, properties, organizationId);
            setState(item.key, 'done');
            succeeded.push({ ...item, state: 'done' });
          } catch (error) {
            const message = errorMessage(error, 'Upload failed');
            setState(item.key, 'failed', message);
            failed.push({ ...item, state: 'failed', error: message });
          }
        }
      }
      try {
        await Promise.all(
          Array.from({ length: Math.min(PARALLEL_UPLOADS, pending.length) }, worker),
        );
      } finally {
        setRunning(false);
        if (succeeded.length > 0) void documentsAdded(queryClient);
      }
      return { succeeded, failed };
    },
    [files, queryClient],
  );

  return { files, running, add, remove, upload };
}
