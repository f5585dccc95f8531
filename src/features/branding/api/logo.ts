import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { readFileBytes } from '../lib/read-file-bytes.ts';
import { imageDataUrl, svgDataUrl } from '../lib/svg-data-url.ts';
import { isLogoImage } from '../lib/validate-logo.ts';
import { succeeded } from '../../../lib/errors.ts';

const BUCKET = 'branding';
const LOGO_FILE = 'logo.svg';
/** The logo the server made from an uploaded PNG, JPEG or WebP image (issue 24). */
const CONVERTED_LOGO_FILE = 'logo.png';
/** Where an image waits to be converted. */
const LOGO_SOURCE_FILE = 'logo-source';

/** Where an organisation's logo is kept in the `branding` bucket (docs/data-model.md). */
export function logoPath(organizationId: string, file = LOGO_FILE): string {
  return `${organizationId}/${file}`;
}

/**
 * The organisation's custom logo as a URL for an <img>, or null when none is stored: the PNG the
 * server made, else the SVG. Any failure to read it counts as "no logo": the navigation then
 * shows the product name, always a sound fallback.
 */
export async function downloadLogo(organizationId: string): Promise<string | null> {
  const bucket = supabase().storage.from(BUCKET);
  // Most organisations have no logo, and asking for a missing object answers 400 (Storage's
  // "not found"), which the browser reports as an error on every page. Listing answers 200.
  const { data: found } = await bucket.list(organizationId, { limit: 10, search: 'logo' });
  const names = new Set(found?.map((object) => object.name));
  const file = names.has(CONVERTED_LOGO_FILE)
    ? CONVERTED_LOGO_FILE
    : names.has(LOGO_FILE)
      ? LOGO_FILE
      : null;
  if (!file) return null;
  const { data, error } = await bucket.download(logoPath(organizationId, file));
  if (error || !data) return null;
  const bytes = await data.arrayBuffer();
  return file === LOGO_FILE ? svgDataUrl(bytes) : imageDataUrl(bytes, 'image/png');
}

/** An image the server would not make into the logo, with its reason. */
export class LogoRefusedError extends Error {}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Uploads a PNG, JPEG or WebP image and waits while the server resizes it into the logo (in a
 * background process, `convert_logo`), up to a minute; throws its refusal in words.
 */
export async function uploadLogoImage(organizationId: string, file: File): Promise<void> {
  const bucket = supabase().storage.from(BUCKET);
  await succeeded(
    bucket.upload(logoPath(organizationId, LOGO_SOURCE_FILE), await readFileBytes(file), {
      upsert: true,
      contentType: file.type,
      cacheControl: '0',
    }),
  );
  await succeeded(supabase().rpc('convert_logo'));
  for (let waited = 0; waited < 60_000; waited += 500) {
    await wait(500);
    const { data } = await succeeded(supabase().rpc('logo_conversion'));
    const state = data as { status: string; error: string | null } | null;
    if (state?.status === 'done') return;
    if (state?.status === 'failed') throw new LogoRefusedError(state.error ?? 'Unknown error');
  }
  throw new LogoRefusedError('The image is still being converted; look again in a minute');
}

/** Stores (or replaces) the organisation's logo. */
export async function uploadLogo(organizationId: string, bytes: ArrayBuffer): Promise<void> {
  const bucket = supabase().storage.from(BUCKET);
  await succeeded(
    bucket.upload(logoPath(organizationId), bytes, {
      upsert: true,
      contentType: 'image/svg+xml',
      // Revalidate on every load, so a replaced logo shows for the whole team at once.
      cacheControl: '0',
    }),
  );
  // An SVG replaces a logo converted from an image.
  await succeeded(bucket.remove([logoPath(organizationId, CONVERTED_LOGO_FILE)]));
}

/** The logo of an organisation, led by the bucket it is stored in. */
const logoKey = (organizationId: string) => ['storage', 'branding', organizationId] as const;

export const organizationLogoQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: logoKey(organizationId),
    queryFn: () => downloadLogo(organizationId),
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
    meta: {
      // An image the server refused says why (too many pixels, not an image).
      errorMessage: (error: Error) =>
        error instanceof LogoRefusedError
          ? `Failed to upload logo. ${error.message}.`
          : 'Failed to upload logo.',
    },
    onError: (error) => console.error('Logo upload failed', error),
    mutationFn: async (file: File) => {
      if (isLogoImage(file)) {
        await uploadLogoImage(organizationId, file);
        return null;
      }
      const bytes = await readFileBytes(file);
      await uploadLogo(organizationId, bytes);
      return svgDataUrl(bytes);
    },
    onSuccess: async (url) => {
      if (url) queryClient.setQueryData(logoKey(organizationId), url);
      else await queryClient.invalidateQueries({ queryKey: logoKey(organizationId) });
    },
  });
}
