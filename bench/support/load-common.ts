/** The columns the documents page selects (src/lib/documents.ts). */
export const DOCUMENT_COLUMNS =
  'id, organization_id, name, category, expiry_date, size, status, file_path, tags, description, created_at, upload_date';

/** A row as supabase-js returns it. */
export type Row = Record<string, unknown>;

/** A random item of `items` (undefined when empty). */
export const pick = <T>(items: T[]): T | undefined =>
  items[Math.floor(Math.random() * items.length)];
