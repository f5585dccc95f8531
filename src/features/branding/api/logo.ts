import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { readFileBytes } from '../lib/read-file-bytes.ts';
import { svgDataUrl } from '../lib/svg-data-url.ts';
import { succeeded } from '../../../lib/errors.ts';

const BUCKET = 'branding';
const LOGO_FILE = 'logo.svg';

/** Where an organisation's logo is kept in the `branding` bucket (docs/data-model.md). */
export function logoPath(organizationId: string): string {
  return `${organizationId}/${LOGO_FILE}`;
}

/**
 * The bytes of the organisation's custom logo, or null when none is stored. Any failure to read
 * it counts as "no logo": the navigation then shows the product name, always a sound fallback.
 */
export async function downloadLogo(organizationId: string): Promise<ArrayBuffer | null> {
  const bucket = supabase().storage.from(BUCKET);
  // Most organisations have no logo, and asking for a missing object answers 400 (Storage's
  // "not found"), which the browser reports as an error on every page. Listing answers 200.
  const { data: found } = await bucket.list(organizationId, { limit: 1, search: LOGO_FILE });
  if (!found?.some((object) => object.name === LOGO_FILE)) return null;
  const { data, error } = await bucket.download(logoPath(organizationId));
  if (error || !data) return null;
  return data.arrayBuffer();
}

/** Stores (or replaces) the organisation's logo. */
export async function uploadLogo(organizationId: string, bytes: ArrayBuffer): Promise<void> {
  await succeeded(
    supabase().storage.from(BUCKET).upload(logoPath(organizationId), bytes, {
      upsert: true,
      contentType: 'image/svg+xml',
      // Revalidate on every load, so a replaced logo shows for the whole team at once.
      cacheControl: '0',
    }),
  );
}

/** The logo of an organisation, led by the bucket it is stored in. */
const logoKey = (organizationId: string) => ['storage', 'branding', organizationId] as const;

export const organizationLogoQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: logoKey(organizationId),
    queryFn: async () => {
      const bytes = await downloadLogo(organizationId);
      return bytes ? svgDataUrl(bytes) : null;
    },
    // A logo rarely changes; every page shows it, so it is not asked for again and again.
    staleTime: 5 * 60_000,
  });

/**
 * The organisation's custom logo as a URL for an <img>, or null for "show the product name"
 * (also while it loads, and without an organisation).
 */
export function useOrganizationLogo(organizationId: string | null) {
  const logo = useQuery({
    ...organizationLogoQueryOptions(organizationId ?? ''),
    enabled: organizationId !== null,
  });
  return organizationId ? (logo.data ?? null) : null;
}

/**
 * Uploading a logo file; the navigation shows it at once, without downloading it again. A
 * refusal is the specification's "Failed to upload logo." (§8).
 */
export function useUploadLogo(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: () => 'Failed to upload logo.' },
    onError: (error) => console.error('Logo upload failed', error),
    mutationFn: async (file: File) => {
      const bytes = await readFileBytes(file);
      await uploadLogo(organizationId, bytes);
      return bytes;
    },
    onSuccess: (bytes) => queryClient.setQueryData(logoKey(organizationId), svgDataUrl(bytes)),
  });
}
