import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { previewKind, type PreviewKind } from '../../../lib/file-kinds.ts';
import { DISPLAY_ERRORS, LOAD_ERROR, usePreviewContent } from '../api/document-preview.ts';

export interface DocumentPreviewState {
  kind: PreviewKind;
  status: 'loading' | 'ready' | 'error';
  /** The signed (or public) link the file was read from; null for kinds not read. */
  url: string | null;
  /** A `blob:` URL of the fetched file, for pdf, image, video and audio. */
  objectUrl: string | null;
  /** What a frame shows: a rendered Word or Excel file, or a PDF under its name. */
  frameUrl: string | null;
  /** The file's text, for text previews. */
  text: string | null;
  /** One of the preview error texts of spec §8. */
  error: string | null;
}

/**
 * The preview of a stored file: its content (see `loadPreview`), a `blob:` URL for the kinds the
 * browser shows inline (revoked when the preview closes), and the browser's own failure to show
 * a fetched file, reported by the media element.
 */
export function useDocumentPreview(fileName: string, filePath: string) {
  const kind = previewKind(fileName);
  const content = usePreviewContent(fileName, filePath);
  const blob = content.data?.blob ?? null;
  const [objectUrl, setObjectUrl] = useState<{ blob: Blob; url: string } | null>(null);
  const [displayFailed, setDisplayFailed] = useState(false);

  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    setObjectUrl({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);

  /** For the media elements' error events: the browser could not show the file. */
  const reportDisplayError = useCallback(() => setDisplayFailed(true), []);

  const shownUrl = objectUrl && objectUrl.blob === blob ? objectUrl.url : null;
  const error = content.isError
    ? errorMessage(content.error, LOAD_ERROR)
    : displayFailed
      ? (DISPLAY_ERRORS[kind] ?? LOAD_ERROR)
      : null;
  const state: DocumentPreviewState = {
    kind,
    status: error ? 'error' : content.data && (!blob || shownUrl) ? 'ready' : 'loading',
    url: content.data?.url ?? null,
    objectUrl: shownUrl,
    frameUrl: content.data?.frameUrl ?? null,
    text: content.data?.text ?? null,
    error,
  };
  return { ...state, reportDisplayError };
}
