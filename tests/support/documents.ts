import { randomBytes } from 'node:crypto';
import type { Person } from '../security/world.ts';
import { unwrap } from '../security/world.ts';

export interface NewDocument {
  name: string;
  bytes: Uint8Array | string;
  contentType?: string;
  category?: string;
  tags?: string[];
  description?: string | null;
  expiryDate?: string | null;
}

export interface UploadedDocument {
  id: string;
  filePath: string;
}

/**
 * Uploads a file and inserts its document row, as the app's upload does (the file first, then
 * the row), as `owner` of `organizationId`.
 */
export async function uploadDocument(
  owner: Person,
  organizationId: string,
  document: NewDocument,
): Promise<UploadedDocument> {
  const extension = document.name.includes('.') ? document.name.split('.').pop() : 'bin';
  const filePath = `documents/${organizationId}/${Date.now()}-${randomBytes(6).toString('hex')}.${extension}`;
  const bytes =
    typeof document.bytes === 'string' ? Buffer.from(document.bytes) : Buffer.from(document.bytes);
  const upload = await owner.client.storage.from('documents').upload(filePath, bytes, {
    contentType: document.contentType ?? 'application/octet-stream',
  });
  if (upload.error) throw new Error(`upload of ${document.name}: ${upload.error.message}`);
  const row = unwrap(
    await owner.client
      .from('documents')
      .insert({
        organization_id: organizationId,
        name: document.name,
        category: document.category ?? 'Other',
        size: bytes.byteLength,
        file_path: filePath,
        tags: document.tags ?? [],
        description: document.description ?? null,
        expiry_date: document.expiryDate ?? null,
        status: 'Active',
      })
      .select('id')
      .single<{ id: string }>(),
    `insert ${document.name}`,
  );
  return { id: row.id, filePath };
}

/** The text state of a document as a member reads it. */
export async function textStateOf(reader: Person, documentId: string) {
  return unwrap(
    await reader.client
      .from('document_texts')
      .select('state, reason, truncated, pages')
      .eq('document_id', documentId)
      .maybeSingle<{
        state: string;
        reason: string | null;
        truncated: boolean;
        pages: number | null;
      }>(),
    'document_texts',
  );
}
