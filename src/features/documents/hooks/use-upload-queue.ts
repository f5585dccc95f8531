import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { documentsAdded } from '../api/document-cache.ts';
import type { DocumentProperties } from '../../../lib/documents.ts';
import {
  fileSha256,
  findMatchingDocuments,
  type MatchingDocument,
} from '../api/find-duplicates.ts';
import { documentKeys } from '../api/query-keys.ts';
import { uploadDocument } from '../api/upload-documents.ts';
import { uploadNewVersion } from '../api/upload-new-version.ts';
import type { DuplicateChoice } from '../components/duplicate-question.tsx';
import type { PropertyInput } from '../utils/property-values.ts';

export type UploadState = 'queued' | 'uploading' | 'done' | 'failed';

export interface QueuedFile {
  key: string;
  file: File;
  state: UploadState;
  /** Bytes sent so far. */
  sent: number;
  /** Why the upload failed. */
  error: string | null;
  /** This file's own category, expiry date, tags and description; null: the batch form's. */
  details: PropertyInput | null;
  /** The document the upload made, once done. */
  documentId: string | null;
}

export interface UploadOutcome {
  succeeded: QueuedFile[];
  failed: QueuedFile[];
  /** Files left out because the organisation already has them. */
  skipped: QueuedFile[];
}

export interface UploadOptions {
  organizationId: string;
  /** The properties of a file, from its own details or the batch form. */
  propertiesOf: (item: QueuedFile) => DocumentProperties;
  /**
   * What to do with a file the organisation already has (the documents it matches, by bytes
   * or by name): upload it as a new version of the first, keep both, or skip it.
   */
  onDuplicate: (file: File, existing: MatchingDocument[]) => Promise<DuplicateChoice>;
}

/** Files uploaded at the same time: enough to overlap round trips, few enough to stay gentle. */
const PARALLEL_UPLOADS = 3;

let nextKey = 0;

/**
 * The selected files, their own details and their upload state: queued, uploading (with the
 * bytes sent), done or failed (with the reason). Uploading skips files already done, so after a
 * partial failure a second try sends only the files that failed. Before uploading, each file's
 * SHA-256 and name are looked up among the organisation's documents; for a file already there
 * `onDuplicate` decides: a new version of that document, a second document, or nothing. What
 * was uploaded appears in every list of documents.
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
      sent: 0,
      error: null,
      details: null,
      documentId: null,
    }));
    if (added.length) setFiles((previous) => [...previous, ...added]);
  }, []);

  const remove = useCallback((key: string) => {
    setFiles((previous) => previous.filter((item) => item.key !== key));
  }, []);

  /** Gives one file its own details (null: the batch form's again). */
  const setDetails = useCallback((key: string, details: PropertyInput | null) => {
    setFiles((previous) =>
      previous.map((item) => (item.key === key ? { ...item, details } : item)),
    );
  }, []);

  /** The batch form's values for every file: each file's own details are dropped. */
  const applyToAll = useCallback(() => {
    setFiles((previous) => previous.map((item) => ({ ...item, details: null })));
  }, []);

  /** Uploads every file not yet done; resolves with what succeeded, failed and was skipped. */
  const upload = useCallback(
    async ({
      organizationId,
      propertiesOf,
      onDuplicate,
    }: UploadOptions): Promise<UploadOutcome> => {
      const update = (key: string, change: Partial<QueuedFile>) =>
        setFiles((previous) =>
          previous.map((item) => (item.key === key ? { ...item, ...change } : item)),
        );
      setRunning(true);
      const succeeded: QueuedFile[] = [];
      const failed: QueuedFile[] = [];
      const skipped: QueuedFile[] = [];
      try {
        // Duplicates are asked about one at a time, before anything is sent.
        const pending: {
          item: QueuedFile;
          sha256: string | null;
          versionOf: MatchingDocument | null;
        }[] = [];
        for (const item of files.filter((file) => file.state !== 'done')) {
          update(item.key, { state: 'queued', error: null, sent: 0 });
          const sha256 = await fileSha256(item.file).catch(() => null);
          const existing = await findMatchingDocuments(item.file, sha256).catch(() => []);
          const choice = existing.length > 0 ? await onDuplicate(item.file, existing) : 'keep';
          if (choice === 'skip') {
            skipped.push(item);
            continue;
          }
          pending.push({ item, sha256, versionOf: choice === 'version' ? existing[0]! : null });
        }
        let next = 0;
        const worker = async () => {
          while (next < pending.length) {
            const { item, sha256, versionOf } = pending[next]!;
            next += 1;
            update(item.key, { state: 'uploading' });
            const onProgress = (sent: number) => update(item.key, { sent });
            try {
              const document = versionOf
                ? await uploadNewVersion({
                    document: versionOf,
                    file: item.file,
                    sha256,
                    onProgress,
                  })
                : await uploadDocument(item.file, propertiesOf(item), organizationId, {
                    sha256,
                    onProgress,
                  });
              if (versionOf) {
                void queryClient.invalidateQueries({
                  queryKey: documentKeys.versions(versionOf.id),
                });
              }
              update(item.key, { state: 'done', documentId: document.id });
              succeeded.push({ ...item, state: 'done', documentId: document.id });
            } catch (error) {
              const message = errorMessage(error, 'Upload failed');
              update(item.key, { state: 'failed', error: message });
              failed.push({ ...item, state: 'failed', error: message });
            }
          }
        };
        await Promise.all(
          Array.from({ length: Math.min(PARALLEL_UPLOADS, pending.length) }, worker),
        );
        const skippedKeys = new Set(skipped.map((item) => item.key));
        if (skippedKeys.size > 0) {
          setFiles((previous) => previous.filter((item) => !skippedKeys.has(item.key)));
        }
      } finally {
        setRunning(false);
        if (succeeded.length > 0) void documentsAdded(queryClient);
      }
      return { succeeded, failed, skipped };
    },
    [files, queryClient],
  );

  return { files, running, add, remove, setDetails, applyToAll, upload };
}
