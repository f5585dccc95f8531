import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  isRenderedOffice,
  mimeTypeFor,
  previewKind,
  type PreviewKind,
} from '../../../lib/file-kinds.ts';
import { createDocumentUrl } from './document-url.ts';
import { fetchLinkedFile } from './fetch-linked-file.ts';
import { previewAddress } from './preview-address.ts';
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
  /** The fetched file with the right media type, for image, video and audio (and PDFs elsewhere). */
  blob: Blob | null;
  /**
   * The address a frame shows: Steward's rendering of a Word or Excel file, or a PDF at an
   * address ending with the document's name (so the PDF viewer's title is that name).
   */
  frameUrl: string | null;
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

/** The server's reason a file cannot be previewed (`PreviewUnavailable`), else null. */
async function unavailableReason(response: Response): Promise<string | null> {
  if (response.status !== 422) return null;
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  return typeof body?.message === 'string' ? body.message : null;
}

/**
 * A Word or Excel file as Steward renders it: the address is fetched once here, so that a file
 * that cannot be previewed says why beside Download, and the frame then shows the same address
 * (rendered once: the server keeps it for that version of the file).
 */
async function officeFrame(url: string, fileName: string, signal?: AbortSignal) {
  const address = previewAddress(url, 'office', fileName);
  if (!address) throw new PreviewFailure(LOAD_ERROR);
  const response = await fetch(address, { signal }).catch((error: unknown) => {
    if (signal?.aborted) throw error;
    throw new PreviewFailure(LOAD_ERROR);
  });
  if (!response.ok) throw new PreviewFailure((await unavailableReason(response)) ?? LOAD_ERROR);
  // The frame shows the page; its bytes are not needed here.
  void response.body?.cancel().catch(() => undefined);
  return address;
}

/**
 * A PDF at the address ending with its name, checked from its first kilobyte; null when that
 * address does not serve it (a hosted backend has no `/preview/v1`): then the file is fetched.
 */
async function namedPdf(url: string, fileName: string, signal?: AbortSignal) {
  const address = previewAddress(url, 'file', fileName);
  if (!address) return null;
  const response = await fetch(address, { signal, headers: { Range: 'bytes=0-1023' } }).catch(
    (error: unknown) => {
      if (signal?.aborted) throw error;
      return null;
    },
  );
  if (!response?.ok) return null;
  if (!(await looksLikePdf(await response.blob()))) throw new PreviewFailure(DISPLAY_ERRORS.pdf!);
  return address;
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
  const office = kind === 'office' && isRenderedOffice(fileName);
  // Other files (and older Office formats) are offered for download only: no link to sign.
  if (kind !== 'text' && !office && !FETCHED_KINDS.has(kind))
    return { kind, url: null, blob: null, text: null, frameUrl: null };
  try {
    const url = await createDocumentUrl(filePath);
    if (office) {
      return {
        kind,
        url,
        blob: null,
        text: null,
        frameUrl: await officeFrame(url, fileName, signal),
      };
    }
    if (kind === 'text') {
      const blob = await fetchFile(url, signal);
      const text = await blob.text().catch(() => {
        throw new PreviewFailure(DISPLAY_ERRORS.text!);
      });
      return { kind, url, blob: null, text, frameUrl: null };
    }
    if (kind === 'pdf') {
      const frameUrl = await namedPdf(url, fileName, signal);
      if (frameUrl) return { kind, url, blob: null, text: null, frameUrl };
    }
    const blob = await fetchFile(url, signal);
    // A frame reports no error when its content is not a PDF, so the file is checked here.
    if (kind === 'pdf' && !(await looksLikePdf(blob))) {
      throw new PreviewFailure(DISPLAY_ERRORS.pdf!);
    }
    return {
      kind,
      url,
      blob: blob.slice(0, blob.size, mimeTypeFor(fileName)),
      text: null,
      frameUrl: null,
    };
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
