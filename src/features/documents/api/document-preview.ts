import { queryOptions, useQuery } from '@tanstack/react-query';
import { mimeTypeFor, previewKind, type PreviewKind } from '../../../lib/file-kinds.ts';
import { createDocumentUrl } from './document-url.ts';
import { fetchLinkedFile } from './fetch-linked-file.ts';
import { documentKeys } from './query-keys.ts';

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

/** One of the preview texts of spec §8, as the reason a preview failed. */
class PreviewFailure extends Error {}

export interface PreviewContent {
  kind: PreviewKind;
  /** The signed (or public) link the file was read from; null for kinds not read here. */
  url: string | null;
  /** The fetched file with the right media type, for pdf, image, video and audio. */
  blob: Blob | null;
  /** The file's text, for text previews. */
  text: string | null;
}

const FETCHED_KINDS: ReadonlySet<PreviewKind> = new Set(['pdf', 'image', 'video', 'audio']);

/** A PDF starts with `%PDF-` within its first 1024 bytes (ISO 32000, implementation note). */
async function looksLikePdf(blob: Blob): Promise<boolean> {
  return (await blob.slice(0, 1024).text()).includes('%PDF-');
}

async function fetchFile(url: string, signal: AbortSignal | undefined): Promise<Blob> {
  try {
    return await fetchLinkedFile(url, signal);
  } catch {
    throw new PreviewFailure(LOAD_ERROR);
  }
}

/**
 * What the preview of a stored file needs: for text and the kinds the browser shows inline, a
 * signed link (valid one hour, or the public link if signing fails), then the file itself with the media
 * type of its extension (what the server stored may be generic). Showing a local copy instead
 * of pointing the frame at the storage API keeps the API's "never render inline" headers intact
 * and works the same against a hosted backend on another origin.
 */
export async function loadPreview(
  fileName: string,
  filePath: string,
  signal?: AbortSignal,
): Promise<PreviewContent> {
  const kind = previewKind(fileName);
  // Office and other files are offered for download only: nothing to read, no link to sign.
  if (kind !== 'text' && !FETCHED_KINDS.has(kind))
    return { kind, url: null, blob: null, text: null };
  try {
    const url = await createDocumentUrl(filePath);
    if (kind === 'text') {
      const blob = await fetchFile(url, signal);
      const text = await blob.text().catch(() => {
        throw new PreviewFailure(DISPLAY_ERRORS.text!);
      });
      return { kind, url, blob: null, text };
    }
    const blob = await fetchFile(url, signal);
    // A frame reports no error when its content is not a PDF, so the file is checked here.
    if (kind === 'pdf' && !(await looksLikePdf(blob))) {
      throw new PreviewFailure(DISPLAY_ERRORS.pdf!);
    }
    return { kind, url, blob: blob.slice(0, blob.size, mimeTypeFor(fileName)), text: null };
  } catch (error) {
    throw error instanceof PreviewFailure ? error : new PreviewFailure(LOAD_ERROR);
  }
}

export const documentPreviewQueryOptions = (fileName: string, filePath: string) =>
  queryOptions({
    queryKey: [...documentKeys.preview(filePath), fileName],
    queryFn: ({ signal }) => loadPreview(fileName, filePath, signal),
    // A file's bytes can be large: they are kept only while a preview shows them, and a signed
    // link is not reused after it may have expired.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

export function usePreviewContent(fileName: string, filePath: string) {
  return useQuery(documentPreviewQueryOptions(fileName, filePath));
}
