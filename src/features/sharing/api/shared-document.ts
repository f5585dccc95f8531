import { useMutation, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';

/** What a share link's page may show: the document's name and size, and a grant for its file. */
export interface SharedDocument {
  name: string;
  size: number;
  expires_at: string;
  /** Presented to fetch the file; short-lived, useless without the link. */
  access: string;
}

export type SharedLinkAnswer =
  { password_required: true } | (SharedDocument & { password_required: false });

/** What a link that does not work shows, whatever the reason. */
export const LINK_GONE = 'This link does not work. It may have expired or been revoked.';

/** The share link service's address (`/share/v1`), on the project's origin. */
function shareApi(path: string): string {
  const base = (supabase() as unknown as { supabaseUrl: string }).supabaseUrl;
  return `${String(base).replace(/\/+$/, '')}/share/v1${path}`;
}

async function answerOf<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new Error(body.message || LINK_GONE);
  return body as T;
}

/** Opens a link without an account: its document, or that it asks for a password. */
export async function openSharedLink(token: string): Promise<SharedLinkAnswer> {
  return answerOf(await fetch(shareApi(`/s/${encodeURIComponent(token)}`)));
}

export const useSharedLink = (token: string) =>
  useQuery({
    queryKey: ['share_links', 'shared', token] as const,
    queryFn: () => openSharedLink(token),
    // Each opening is recorded in the document's history: once per visit.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** Gives a link's password; the server slows down wrong guesses. */
export async function unlockSharedLink(token: string, password: string): Promise<SharedDocument> {
  return answerOf(
    await fetch(shareApi(`/s/${encodeURIComponent(token)}/unlock`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    }),
  );
}

export const useUnlockSharedLink = (token: string) =>
  useMutation({
    // The password form shows the refusal under its field.
    meta: { errorShownInPlace: true },
    mutationFn: (password: string) => unlockSharedLink(token, password),
  });

/**
 * The file's address for the preview, or with `download` as an attachment; given the document's
 * name, an address ending with it (the browser's PDF viewer shows it as its title).
 */
export const sharedFileUrl = (token: string, access: string, download = false, name?: string) =>
  shareApi(
    `/s/${encodeURIComponent(token)}/file${name ? `/${encodeURIComponent(name)}` : ''}?access=${encodeURIComponent(access)}${download ? '&download' : ''}`,
  );

/** A shared PDF at the address ending with its name, once its first kilobyte says it is one. */
export const useSharedPdf = (token: string, document: SharedDocument | null, wanted: boolean) =>
  useQuery({
    queryKey: ['share_links', 'shared-pdf', token, document?.access ?? ''] as const,
    enabled: Boolean(document) && wanted,
    staleTime: Infinity,
    queryFn: async () => {
      const address = sharedFileUrl(token, document!.access, false, document!.name);
      const response = await fetch(address, { headers: { Range: 'bytes=0-1023' } });
      if (!response.ok) await answerOf(response);
      if (!(await response.text()).includes('%PDF-'))
        throw new Error('PDF could not be displayed.');
      return address;
    },
  });

/** The file's bytes for the preview, as an object URL the page revokes when done. */
export const useSharedFile = (token: string, document: SharedDocument | null, wanted: boolean) =>
  useQuery({
    queryKey: ['share_links', 'shared-file', token, document?.access ?? ''] as const,
    enabled: Boolean(document) && wanted,
    staleTime: Infinity,
    queryFn: async () => {
      const response = await fetch(sharedFileUrl(token, document!.access));
      if (!response.ok) await answerOf(response);
      return response.blob();
    },
  });

/** The address of a shared Word or Excel file as Steward renders it, for a sandboxed frame. */
export const sharedPreviewUrl = (token: string, access: string) =>
  shareApi(`/s/${encodeURIComponent(token)}/preview?access=${encodeURIComponent(access)}`);

/**
 * Whether the rendered preview of a shared Word or Excel file can be shown: fetched once here,
 * so that one that cannot says why; the frame then shows the same address (kept by the server).
 */
export const useSharedPreview = (token: string, document: SharedDocument | null, wanted: boolean) =>
  useQuery({
    queryKey: ['share_links', 'shared-preview', token, document?.access ?? ''] as const,
    enabled: Boolean(document) && wanted,
    staleTime: Infinity,
    queryFn: async () => {
      const address = sharedPreviewUrl(token, document!.access);
      const response = await fetch(address);
      if (!response.ok) await answerOf(response);
      // The frame shows the page; its bytes are not needed here.
      void response.body?.cancel().catch(() => undefined);
      return address;
    },
  });
