import { createClient } from '@supabase/supabase-js';
import { inject } from 'vitest';
import type { Database, TablesInsert } from '../lib/database.types.ts';
import type { AppSupabaseClient } from '../lib/supabase.ts';
import type { TestOrganization } from './backend.ts';
import { succeeded } from '../lib/errors.ts';

/** A service-role client: test set-up that the API does not let members do (e.g. `created_at`). */
export function serviceClient(): AppSupabaseClient {
  const { url, serviceRoleKey } = inject('backend');
  return createClient<Database>(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

let counter = 0;

export type SeedDocument = Partial<TablesInsert<'documents'>> & { name: string };

/** Inserts document rows for `organization` (without stored files unless `file_path` is given). */
export async function seedDocuments(
  organization: TestOrganization,
  documents: SeedDocument[],
): Promise<Database['public']['Tables']['documents']['Row'][]> {
  const rows = documents.map((document) => ({
    category: 'Other' as const,
    size: 1024,
    tags: [],
    file_path: `documents/${organization.organizationId}/${Date.now()}-seed${(counter += 1)}.bin`,
    ...document,
    organization_id: organization.organizationId,
  }));
  const { data } = await succeeded(serviceClient().from('documents').insert(rows).select('*'));
  return data;
}

/** Stores `content` as the organisation's file `fileName` (as the app would) and returns its path. */
export async function storeFile(
  organization: TestOrganization,
  fileName: string,
  content: string | Uint8Array,
  contentType = 'application/octet-stream',
): Promise<string> {
  const extension = fileName.split('.').pop();
  const path = `documents/${organization.organizationId}/${Date.now()}-t${(counter += 1)}.${extension}`;
  await succeeded(
    organization.masterAdmin.client.storage
      .from('documents')
      .upload(path, content, { contentType }),
  );
  return path;
}

/** A stored file and its row, as an upload through the app leaves them. */
export async function seedStoredDocument(
  organization: TestOrganization,
  document: SeedDocument,
  content: string | Uint8Array,
  contentType?: string,
) {
  const file_path = await storeFile(organization, document.name, content, contentType);
  const size =
    typeof content === 'string' ? new TextEncoder().encode(content).length : content.length;
  const [row] = await seedDocuments(organization, [{ size, ...document, file_path }]);
  return row!;
}

/** The text of a stored object, read through the API as a member. */
export async function readStoredText(
  organization: TestOrganization,
  path: string,
): Promise<string> {
  const { data } = await succeeded(
    organization.masterAdmin.client.storage.from('documents').download(path),
  );
  return data.text();
}
