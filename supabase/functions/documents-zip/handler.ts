/**
 * The `documents-zip` edge function: the selected documents as one ZIP file, streamed (issue
 * 13, bulk download).
 *
 * `POST /functions/v1/documents-zip` with `{ "documentIds": [...] }` (1 to 500) and the user's
 * session token answers `application/zip`. Everything is read as the caller, through the REST
 * and storage APIs, so row-level security decides what may be packed: a document the caller
 * may not read answers 404 before any byte is sent. The archive is made while it is sent
 * (client-zip, no compression: documents are mostly compressed already): one file at a time is
 * fetched, only when the client reads on, so memory stays small whatever the total size. A file
 * missing from storage is left out and named in `MISSING FILES.txt` inside the archive.
 *
 * Errors answer `{ error }`. Web-standard code only: the same module runs on Supabase's Deno
 * edge runtime (index.ts) and inside the embedded backend.
 */
import { downloadZip } from 'client-zip';
import { corsHeaders } from '../_shared/cors.ts';
import type { FunctionEnv, FunctionHandler } from '../_shared/function-env.ts';
import { requireEnv } from '../_shared/function-env.ts';
import { zipEntryNames } from './zip-names.ts';

const MAX_DOCUMENTS = 500;
const MAX_BODY_BYTES = 64 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface DocumentRow {
  id: string;
  name: string;
  file_path: string;
  updated_at: string;
}

const failure = (status: number, error: string) =>
  Response.json({ error }, { status, headers: corsHeaders });

class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function requestedIds(request: Request): Promise<string[]> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new RequestError(413, 'Request body is too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RequestError(400, 'Request body must be JSON');
  }
  const ids = (body as { documentIds?: unknown } | null)?.documentIds;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && UUID.test(id))) {
    throw new RequestError(400, 'documentIds must be a list of document ids');
  }
  const unique = [...new Set(ids.map((id: string) => id.toLowerCase()))];
  if (unique.length < 1 || unique.length > MAX_DOCUMENTS) {
    throw new RequestError(400, `Select between 1 and ${MAX_DOCUMENTS} documents`);
  }
  return unique;
}

/** An object name as a storage path: each segment encoded, the slashes kept. */
const objectPath = (name: string) => name.split('/').map(encodeURIComponent).join('/');

export function createHandler(env: FunctionEnv): FunctionHandler {
  const baseUrl = requireEnv(env, 'SUPABASE_URL').replace(/\/+$/, '');
  const anonKey = requireEnv(env, 'SUPABASE_ANON_KEY');

  return async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return failure(405, 'Use POST');
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    // The anon key is a valid JWT too, but it belongs to nobody.
    if (!token || token === anonKey) return failure(401, 'Not authenticated');
    const asCaller = { apikey: anonKey, Authorization: `Bearer ${token}` };

    let ids: string[];
    try {
      ids = await requestedIds(request);
    } catch (error) {
      if (error instanceof RequestError) return failure(error.status, error.message);
      throw error;
    }
    const listing = await fetch(
      `${baseUrl}/rest/v1/documents?select=id,name,file_path,updated_at&id=in.(${ids.join(',')})`,
      { headers: asCaller },
    );
    if (listing.status === 401 || listing.status === 403) {
      await listing.body?.cancel();
      return failure(401, 'Not authenticated');
    }
    if (!listing.ok) {
      await listing.body?.cancel();
      return failure(502, 'The documents could not be read');
    }
    const found = (await listing.json()) as DocumentRow[];
    if (found.length !== ids.length) {
      return failure(404, 'Some of the selected documents were not found');
    }
    // In the order they were selected.
    const documents = ids.map((id) => found.find((doc) => doc.id.toLowerCase() === id)!);
    const names = zipEntryNames(documents);

    async function* entries() {
      const missing: string[] = [];
      for (const [i, doc] of documents.entries()) {
        const file = await fetch(
          `${baseUrl}/storage/v1/object/authenticated/documents/${objectPath(doc.file_path)}`,
          { headers: asCaller },
        );
        if (!file.ok || !file.body) {
          await file.body?.cancel();
          missing.push(names[i]!);
          continue;
        }
        yield { name: names[i]!, lastModified: new Date(doc.updated_at), input: file };
      }
      if (missing.length > 0) {
        yield {
          name: 'MISSING FILES.txt',
          input: `These documents' files could not be read and are not in this archive:\n${missing.join('\n')}\n`,
        };
      }
    }

    const zip = downloadZip(entries(), { buffersAreUTF8: true });
    const headers = new Headers(corsHeaders);
    headers.set('Content-Type', 'application/zip');
    headers.set('Content-Disposition', 'attachment; filename="documents.zip"');
    headers.set('Cache-Control', 'no-store');
    return new Response(zip.body, { status: 200, headers });
  };
}
