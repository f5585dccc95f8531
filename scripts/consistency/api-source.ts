import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { DocumentEntry, FileState, ObjectEntry } from './inventory.ts';
import { DOCUMENTS_BUCKET } from './inventory.ts';

const PAGE = 1000;
/** Requests in flight at once for per-object probes: enough to be quick, not a load test. */
const PARALLEL = 8;

/** Thrown when the API answers with an error the check cannot get past. */
export class ApiSourceError extends Error {}

/** A supabase-js client with the service-role key: no session, no timers. */
export function serviceClient(url: string, serviceRoleKey: string): SupabaseClient {
  return createClient(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; the realtime client is never connected.
    realtime: { transport: WebSocket as never },
  });
}

/** The `role` claim of a JWT-shaped API key, without verifying it (the server will). */
export function keyRole(key: string): string | null {
  const payload = key.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      role?: unknown;
    };
    return typeof claims.role === 'string' ? claims.role : null;
  } catch {
    return null;
  }
}

/** Runs `task` over `items`, at most `PARALLEL` at a time, keeping the order of results. */
export async function mapLimited<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return results;
}

/** Every document row, page by page (the service role sees every organisation's). */
export async function listAllDocuments(client: SupabaseClient): Promise<DocumentEntry[]> {
  const documents: DocumentEntry[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await client
      .from('documents')
      .select('id, organization_id, name, file_path, size, created_at')
      // Oldest first: documents added during the walk land on the last page, not shifting
      // earlier pages under it.
      .order('created_at')
      .order('id')
      .range(from, from + PAGE - 1);
    if (error) throw new ApiSourceError(`Could not read documents: ${error.message}`);
    const rows = data as {
      id: string;
      organization_id: string;
      name: string;
      file_path: string;
      size: number | string;
      created_at: string;
    }[];
    for (const row of rows) {
      documents.push({
        id: row.id,
        organizationId: row.organization_id,
        name: row.name,
        filePath: row.file_path,
        size: Number(row.size),
        createdAt: row.created_at,
      });
    }
    if (rows.length < PAGE) return documents;
  }
}

/**
 * The object names of every document's earlier versions, page by page; none where the table
 * does not exist yet (a server from before versions).
 */
export async function listVersionFiles(client: SupabaseClient): Promise<string[]> {
  const files: string[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await client
      .from('document_versions')
      .select('file_path')
      .order('id')
      .range(from, from + PAGE - 1);
    if (error?.code === 'PGRST205') return files;
    if (error) throw new ApiSourceError(`Could not read document versions: ${error.message}`);
    const rows = data as { file_path: string }[];
    files.push(...rows.map((row) => row.file_path));
    if (rows.length < PAGE) return files;
  }
}

interface ListedEntry {
  name: string;
  id: string | null;
  created_at: string | null;
  metadata: { size?: unknown } | null;
}

/**
 * Every object of `bucket`, walking its folders as the storage API lists them (one level per
 * request, folders have no id).
 */
export async function listBucketObjects(
  client: SupabaseClient,
  bucket: string,
): Promise<ObjectEntry[]> {
  const objects: ObjectEntry[] = [];
  const folders = [''];
  while (folders.length > 0) {
    const prefix = folders.pop()!;
    for (let offset = 0; ; offset += PAGE) {
      const { data, error } = await client.storage
        .from(bucket)
        .list(prefix, { limit: PAGE, offset, sortBy: { column: 'name', order: 'asc' } });
      if (error) throw new ApiSourceError(`Could not list ${bucket}/${prefix}: ${error.message}`);
      const entries = data as unknown as ListedEntry[];
      for (const entry of entries) {
        const name = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.id === null) {
          folders.push(name);
          continue;
        }
        const size = entry.metadata?.size;
        objects.push({
          id: entry.id,
          bucketId: bucket,
          name,
          version: null,
          size: typeof size === 'number' ? size : null,
          createdAt: entry.created_at,
        });
      }
      if (entries.length < PAGE) break;
    }
  }
  return objects;
}

/** Every bucket's id. */
export async function listBucketIds(client: SupabaseClient): Promise<string[]> {
  const { data, error } = await client.storage.listBuckets();
  if (error) throw new ApiSourceError(`Could not list buckets: ${error.message}`);
  const ids = data.map((bucket) => bucket.id).sort();
  if (!ids.includes(DOCUMENTS_BUCKET)) {
    throw new ApiSourceError(`The server has no "${DOCUMENTS_BUCKET}" bucket: is it Steward?`);
  }
  return ids;
}

/**
 * The version of each object (from `info`), so its file can be looked for on disk. An object
 * removed since it was listed gets version null and is dropped by the caller.
 */
export async function objectVersions(
  client: SupabaseClient,
  objects: ObjectEntry[],
): Promise<(string | null)[]> {
  return mapLimited(objects, async (object) => {
    const { data, error } = await client.storage.from(object.bucketId).info(object.name);
    if (error) return null;
    return (data as { version?: string | null }).version ?? null;
  });
}

/**
 * Whether each object's bytes can be read: a one-byte range request, which (unlike HEAD) opens
 * the file. 200/206, or 416 for an empty file, mean the file is there; the storage API's
 * "Object not found" for an object that was just listed means its file is gone.
 */
export async function probeFiles(
  url: string,
  serviceRoleKey: string,
  objects: ObjectEntry[],
): Promise<FileState[]> {
  return mapLimited(objects, async (object) => {
    const path = `${object.bucketId}/${object.name}`.split('/').map(encodeURIComponent).join('/');
    try {
      const response = await fetch(`${url}/storage/v1/object/authenticated/${path}`, {
        headers: {
          apikey: serviceRoleKey,
          Authorization: `Bearer ${serviceRoleKey}`,
          Range: 'bytes=0-0',
        },
      });
      const body = await response.text();
      if ([200, 206, 416].includes(response.status)) return 'present';
      return /"statusCode"\s*:\s*"404"/.test(body) ? 'missing' : 'unknown';
    } catch {
      return 'unknown';
    }
  });
}
