import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { openFileStore, openResumableStore } from '../../server/storage/open-file-store.ts';
import type { TestServer } from '../support/server.ts';
import { accessTokenFor, clientWithToken } from '../support/tokens.ts';

/**
 * Buckets and policies of the storage tests, as a project would write them:
 * - `files`: private; every signed-in user reads and writes their own folder `{user id}/…`;
 * - `shared`: public (anyone may download), written under the same folder rule;
 * - `limited`: private, 1 KiB per object, PNG images and text only, same folder rule.
 */
export async function createStorageFixtures(server: TestServer): Promise<void> {
  const ownFolder = `bucket_id in ('files', 'shared', 'limited')
    and (storage.foldername(name))[1] = (select auth.uid())::text`;
  await server.db.serverWork().exec(`
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
      ('files', 'files', false, null, null),
      ('shared', 'shared', true, null, null),
      ('limited', 'limited', false, 1024, array['image/png', 'text/*']);
    create policy "users read their own folder" on storage.objects
      for select to authenticated using (${ownFolder});
    create policy "users add to their own folder" on storage.objects
      for insert to authenticated with check (${ownFolder});
    create policy "users change their own folder" on storage.objects
      for update to authenticated using (${ownFolder}) with check (${ownFolder});
    create policy "users remove from their own folder" on storage.objects
      for delete to authenticated using (${ownFolder});
  `);
}

export interface TestUser {
  id: string;
  token: string;
  client: SupabaseClient;
}

/** A signed-in user (a token signed by the server; no sign-up needed). */
export function testUser(server: TestServer): TestUser {
  const id = randomUUID();
  const token = accessTokenFor(server, id);
  return { id, token, client: clientWithToken(server, token) };
}

/** Every file under `dir`, as paths relative to it ([] when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * What the test server's file store holds (`objects/…`, as the consistency check lists it: on
 * disk or in its bucket), with its resumable uploads (`resumable/{id}`, beside the files).
 */
export async function storedFiles(server: TestServer): Promise<string[]> {
  const store = openFileStore(server.dataDir, server.config.storage.objects);
  const objects = (await store.inventory()).map((entry) => entry.path);
  const resumable = await resumableStoreOf(server).uploadIds();
  return [...objects, ...resumable.map((id) => `resumable/${id}`)].sort();
}

/** The test server's resumable uploads (on its disk, or in its bucket). */
export const resumableStoreOf = (server: TestServer) =>
  openResumableStore(server.dataDir, server.config.storage.objects);

/** Whether the test server's file store holds `version` (on disk or in its bucket). */
export const storedVersionExists = async (server: TestServer, version: string): Promise<boolean> =>
  (await openFileStore(server.dataDir, server.config.storage.objects).sizeOf(version)) !== null;

/** The objects' files alone (`objects/…`). */
export const storedObjectFiles = async (server: TestServer): Promise<string[]> =>
  (await storedFiles(server)).filter((name) => name.startsWith('objects/'));

/** Raw storage API call with a token, for what supabase-js cannot send. */
export function storageFetch(
  server: TestServer,
  pathAndQuery: string,
  init: RequestInit & { token?: string | null } = {},
): Promise<Response> {
  const { token = server.keys.serviceRoleKey, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) {
    headers.set('authorization', `Bearer ${token}`);
    headers.set('apikey', server.keys.anonKey);
  }
  return fetch(`${server.url}/storage/v1${pathAndQuery}`, { ...rest, headers });
}

/** The storage server's error body. */
export interface StorageErrorBody {
  statusCode: string;
  code: string;
  error: string;
  message: string;
}

/** An organisation whose running storage total differs from what its objects take. */
export interface StorageTotalDrift {
  organization_id: string;
  total: string;
  objects: string;
}

/**
 * Every organisation's running storage total (`private.organization_storage_totals`, kept by
 * triggers) against a full sum of its objects in the buckets that count, read as the server's
 * own connection: the organisations whose two differ (none when every total is right). The sum
 * is the quota's former one, object by object under each folder, not the triggers' helpers.
 */
export async function storageTotalDrift(server: TestServer): Promise<StorageTotalDrift[]> {
  const { rows } = await server.db.serverWork().query<StorageTotalDrift>(
    `select c.organization_id::text, c.total::text, c.objects::text
       from (select i.id as organization_id, coalesce(t.bytes, 0) as total,
                    private.bucket_folder_bytes('documents', 'documents/' || i.id || '/')
                    + private.bucket_folder_bytes('branding', i.id || '/')
                    + private.bucket_folder_bytes('imports', i.id || '/') as objects
               from (select id from public.organizations
                     union select organization_id from private.organization_storage_totals) i
               left join private.organization_storage_totals t on t.organization_id = i.id) c
      where c.total <> c.objects
      order by 1`,
  );
  return rows;
}
