import type { Tables } from './database.types.ts';

/**
 * A document as the app shows it (table `documents`, docs/data-model.md). `expiry_date` is a
 * calendar date (`yyyy-MM-dd`); `size` is in bytes; `file_path` is the object name in the
 * `documents` bucket, `documents/{organization_id}/{file}`.
 */
export type DocumentRecord = Pick<
  Tables<'documents'>,
  | 'id'
  | 'organization_id'
  | 'name'
  | 'category'
  | 'expiry_date'
  | 'size'
  | 'status'
  | 'file_path'
  | 'tags'
  | 'description'
  | 'created_at'
  | 'upload_date'
  | 'responsible_id'
  | 'renewal_in_progress'
  | 'renewal_note'
>;

/** The columns of `DocumentRecord`, for `select`. */
export const DOCUMENT_COLUMNS =
  'id, organization_id, name, category, expiry_date, size, status, file_path, tags, description, created_at, upload_date, responsible_id, renewal_in_progress, renewal_note';

/** The storage bucket of every document's bytes. */
export const DOCUMENTS_BUCKET = 'documents';

/** Who looks after a document, and whether its renewal is under way (edit-properties modal). */
export interface DocumentRenewalFields {
  responsible_id: string | null;
  renewal_in_progress: boolean;
  renewal_note: string | null;
}

/** The properties a user sets at upload and in the edit-properties modal (there also the name). */
export interface DocumentProperties {
  name?: string;
  category: Tables<'documents'>['category'];
  expiry_date: string | null;
  tags: string[];
  description: string | null;
}
