import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENTS_BUCKET } from '../../../lib/documents.ts';

/** Lifetime of a signed link (spec §9). */
export const SIGNED_URL_SECONDS = 3600;

/**
 * A link to a stored file: a signed link valid for an hour, or, if signing fails, the bucket's
 * public link (spec §7). The public link only works for public buckets; the caller finds out
 * when fetching it and says so.
 */
export async function createDocumentUrl(filePath: string): Promise<string> {
  const bucket = supabase().storage.from(DOCUMENTS_BUCKET);
  try {
    const { data, error } = await bucket.createSignedUrl(filePath, SIGNED_URL_SECONDS);
    if (!error && data?.signedUrl) return data.signedUrl;
  } catch {
    // Fall through to the public link, as the specification asks.
  }
  return bucket.getPublicUrl(filePath).data.publicUrl;
}
