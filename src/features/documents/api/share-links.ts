import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Database } from '../../../lib/database.types.ts';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { apiEndpoint } from './api-endpoint.ts';

/** A share link that works now, as `list_share_links` returns it. */
export type ShareLink = Database['public']['CompositeTypes']['share_link_summary'];

export interface NewShareLink {
  documentId: string;
  /** How many days the link lasts. */
  days: number;
  /** Whom the link is for ("Riverside Hall"); optional. */
  label: string;
  /** Optional: the visitor must give it. */
  password: string;
}

/** The address a share link opens: the app's public shared page. */
export const shareLinkUrl = (token: string) => `${window.location.origin}/s/${token}`;

/** Query keys: the first element is the table the lists read. */
export const shareLinkKeys = {
  all: ['share_links'] as const,
  list: (documentId: string | null) => ['share_links', 'list', documentId ?? 'all'] as const,
};

/**
 * Makes a share link through the server (`POST /share/v1/links`): it hashes the password off
 * the thread that answers and returns the link's token once. Returns the address to hand out.
 */
export async function createShareLink(link: NewShareLink): Promise<{ url: string }> {
  const { url, headers } = await apiEndpoint();
  const response = await fetch(`${url}/share/v1/links`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      document_id: link.documentId,
      expires_at: new Date(Date.now() + link.days * 86_400_000).toISOString(),
      label: link.label.trim() || null,
      password: link.password || null,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as { token?: string; message?: string };
  if (!response.ok || !body.token) {
    throw new Error(body.message || 'The link could not be made');
  }
  return { url: shareLinkUrl(body.token) };
}

export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'The link could not be made' },
    mutationFn: createShareLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.all }),
  });
}

/** The links that work now: of one document, or with null of the organisation (admins: all). */
export async function listShareLinks(documentId: string | null): Promise<ShareLink[]> {
  const { data } = await succeeded(
    supabase().rpc('list_share_links', { document_id: documentId as string }),
    'Failed to load the share links',
  );
  return data;
}

export const shareLinksQueryOptions = (documentId: string | null) =>
  queryOptions({
    queryKey: shareLinkKeys.list(documentId),
    queryFn: () => listShareLinks(documentId),
  });

export const useShareLinks = (documentId: string | null) =>
  useQuery(shareLinksQueryOptions(documentId));

/** What Revoke asks first. */
export const REVOKE_QUESTION =
  'Revoke this link? It stops working at once for everyone who has it.';

/** Revokes a link: it stops working at once. */
export async function revokeShareLink(linkId: string): Promise<void> {
  await succeeded(
    supabase().rpc('revoke_share_link', { link_id: linkId }),
    'The link could not be revoked',
  );
}

export function useRevokeShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'The link could not be revoked' },
    mutationFn: revokeShareLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.all }),
  });
}
