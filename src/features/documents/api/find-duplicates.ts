import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/**
 * The SHA-256 of a file's bytes (lower-case hex), with WebCrypto: what the database records
 * for every stored file, so the same bytes can be recognised before they are uploaded again.
 * Null where the browser has no WebCrypto (an insecure origin).
 */
export async function fileSha256(file: File): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  // A view of this realm over the bytes: WebCrypto checks its argument's realm where the file
  // reader belongs to another (as under jsdom in the tests).
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(await readBytes(file)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A file's bytes, with FileReader (which every browser has, as `Blob.arrayBuffer` is newer). */
function readBytes(file: File): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/** A document an upload matches: by its bytes, or (where none has them) by its name. */
export interface MatchingDocument {
  id: string;
  organization_id: string;
  name: string;
}

/** How many matching documents are looked up: the question names the first. */
const MATCHES = 10;

/**
 * The organisation's documents an upload of `file` would repeat, newest first: those with
 * exactly its bytes (`find_duplicate_documents`, where its SHA-256 is known), or else those
 * with exactly its name (an edited "Volunteer Handbook.docx" has new bytes but the same name).
 */
export async function findMatchingDocuments(
  file: File,
  sha256: string | null,
): Promise<MatchingDocument[]> {
  if (sha256) {
    const { data } = await succeeded(supabase().rpc('find_duplicate_documents', { sha256 }));
    const same = (data ?? []).map(({ id, organization_id, name }) => ({
      id,
      organization_id,
      name,
    }));
    if (same.length > 0) return same;
  }
  const { data } = await succeeded(
    supabase()
      .from('documents')
      .select('id, organization_id, name')
      .eq('name', file.name)
      .order('upload_date', { ascending: false })
      .limit(MATCHES),
  );
  return data ?? [];
}
