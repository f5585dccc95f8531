import { useCallback, useEffect, useState } from 'react';
import { mimeTypeFor, previewKind, type PreviewKind } from '../../../lib/file-kinds.ts';
import { createDocumentUrl } from '../api/document-url.ts';
import { fetchLinkedFile } from '../api/fetch-linked-file.ts';

export interface DocumentPreviewState {
  kind: PreviewKind;
  status: 'loading' | 'ready' | 'error';
  /** The signed (or public) link: for the Office Online viewer. */
  url: string | null;
  /** A `blob:` URL of the fetched file, for pdf, image, video and audio. */
  objectUrl: string | null;
  /** The file's text, for text previews. */
  text: string | null;
  /** One of the preview error texts of spec §8. */
  error: string | null;
}

/** The spec's text when the file could not be fetched (§8). */
export const LOAD_ERROR = 'Failed to load document.';

/** The spec's text when the browser cannot show a fetched file of this kind (§8). */
export const DISPLAY_ERRORS: Partial<Record<PreviewKind, string>> = {
  pdf: 'PDF could not be displayed.',
  image: 'Image could not be displayed.',
  video: 'Video could not be displayed.',
  audio: 'Audio could not be played.',
  text: 'Text file could not be displayed.',
};

/** A PDF starts with `%PDF-` within its first 1024 bytes (ISO 32000, implementation note). */
async function looksLikePdf(blob: Blob): Promise<boolean> {
  return (await blob.slice(0, 1024).text()).includes('%PDF-');
}

const FETCHED_KINDS: ReadonlySet<PreviewKind> = new Set(['pdf', 'image', 'video', 'audio']);

/**
 * Loads what the preview of a stored file needs: a signed link (valid one hour, or the public
 * link if signing fails), then, for kinds the browser shows inline, the file itself as a
 * `blob:` URL with the right media type. Showing a local blob instead of pointing the frame at
 * the storage API keeps the API's "never render inline" headers intact and works the same
 * against a hosted backend on another origin.
 */
export function useDocumentPreview(fileName: string, filePath: string) {
  const kind = previewKind(fileName);
  const [state, setState] = useState<DocumentPreviewState>({
    kind,
    status: 'loading',
    url: null,
    objectUrl: null,
    text: null,
    error: null,
  });

  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const fail = (error: string) =>
      setState((previous) => ({ ...previous, status: 'error', error }));

    (async () => {
      const url = await createDocumentUrl(filePath);
      if (controller.signal.aborted) return;
      if (kind === 'text') {
        let blob: Blob;
        try {
          blob = await fetchLinkedFile(url, controller.signal);
        } catch {
          if (!controller.signal.aborted) fail(LOAD_ERROR);
          return;
        }
        try {
          const text = await blob.text();
          setState({ kind, status: 'ready', url, objectUrl: null, text, error: null });
        } catch {
          fail(DISPLAY_ERRORS.text!);
        }
        return;
      }
      if (FETCHED_KINDS.has(kind)) {
        const blob = await fetchLinkedFile(url, controller.signal);
        if (controller.signal.aborted) return;
        // A frame reports no error when its content is not a PDF, so the file is checked here.
        if (kind === 'pdf' && !(await looksLikePdf(blob))) {
          if (!controller.signal.aborted) fail(DISPLAY_ERRORS.pdf!);
          return;
        }
        // The media type comes from the extension: what the server stored may be generic.
        objectUrl = URL.createObjectURL(blob.slice(0, blob.size, mimeTypeFor(fileName)));
      }
      setState({ kind, status: 'ready', url, objectUrl, text: null, error: null });
    })().catch(() => {
      if (!controller.signal.aborted) fail(LOAD_ERROR);
    });

    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [fileName, filePath, kind]);

  /** For the media elements' error events: the browser could not show the file. */
  const reportDisplayError = useCallback(() => {
    setState((previous) => ({
      ...previous,
      status: 'error',
      error: DISPLAY_ERRORS[previous.kind] ?? LOAD_ERROR,
    }));
  }, []);

  return { ...state, reportDisplayError };
}
