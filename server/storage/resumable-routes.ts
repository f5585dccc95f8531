import { Server as TusServer } from '@tus/server';
import { Metadata, type Upload } from '@tus/utils';
import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import type { ApiEnv } from '../http/api-env.ts';
import { StorageError, storageErrors } from './errors.ts';
import { validObjectName } from './names.ts';
import type { NewObjectRow } from './object-rows.ts';
import { checkWritable, commitRow } from './object-rows.ts';
import { checkBucketRules } from './object-write.ts';
import type { ObjectMetadata } from './queries.ts';
import { findBucket } from './queries.ts';
import type { StorageScope } from './scope.ts';
import { requireCaller } from './scope.ts';
import type { ResumableStore } from './resumable-store.ts';
import { isFinished, isResumableUploadId } from './resumable-store.ts';
import { releaseGoneUpload, reserveUpload } from './upload-reservations.ts';
import type { SharedStorage, StorageServices } from './services.ts';
import { storageWith } from './services.ts';
import { parseMetadata, validCacheControl, validMimeType } from './upload-source.ts';

/** Where Supabase Storage answers TUS (its resumable uploads), as the request URL has it. */
export const RESUMABLE_PATH = '/storage/v1/upload/resumable';

/** What a resumable upload will become, decided and checked when it is created. */
interface UploadTarget {
  bucketId: string;
  name: string;
  mimetype: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
  upsert: boolean;
  /** Who created it (`role:sub`): only they may continue, look at or cancel it. */
  owner: string;
}

const ownerOf = (scope: StorageScope) =>
  `${scope.caller.role}:${typeof scope.caller.claims.sub === 'string' ? scope.caller.claims.sub : ''}`;

/** The target as kept in the upload's TUS metadata (strings only, set by the server alone). */
function targetToMetadata(target: UploadTarget): Record<string, string> {
  return {
    bucketName: target.bucketId,
    objectName: target.name,
    contentType: target.mimetype,
    cacheControl: target.cacheControl,
    ...(target.userMetadata ? { metadata: JSON.stringify(target.userMetadata) } : {}),
    upsert: String(target.upsert),
    owner: target.owner,
  };
}

function targetFromMetadata(metadata: Upload['metadata']): UploadTarget | null {
  const { bucketName, objectName, contentType, cacheControl, owner } = metadata ?? {};
  if (!bucketName || !objectName || !contentType || !cacheControl || !owner) return null;
  const userMetadata = metadata?.metadata;
  return {
    bucketId: bucketName,
    name: objectName,
    mimetype: contentType,
    cacheControl,
    userMetadata: userMetadata ? parseMetadata(userMetadata) : null,
    upsert: metadata?.upsert === 'true',
    owner,
  };
}

/**
 * Reads what a creation request asks for (headers `Upload-Length`, `Upload-Metadata` with
 * `bucketName`, `objectName`, `contentType`, `cacheControl` and optional `metadata`, and
 * `x-upsert`), as the storage server reads them.
 */
function requestedTarget(request: Request, scope: StorageScope): UploadTarget & { size: number } {
  const headers = request.headers;
  const length = headers.get('upload-length');
  if (headers.get('upload-defer-length') !== null || headers.get('upload-concat') !== null) {
    throw storageErrors.invalidRequest('Upload-Length is required');
  }
  if (length === null || !/^\d{1,15}$/.test(length)) {
    throw storageErrors.invalidRequest('Upload-Length is required');
  }
  let fields: Record<string, string | null> = {};
  try {
    const header = headers.get('upload-metadata');
    if (header) fields = Metadata.parse(header);
  } catch {
    throw storageErrors.invalidRequest('Upload-Metadata is not valid');
  }
  const { bucketName, objectName, contentType, cacheControl, metadata } = fields;
  if (!bucketName) throw storageErrors.invalidRequest('metadata must have bucketName');
  if (!objectName) throw storageErrors.invalidRequest('metadata must have objectName');
  // `cacheControl` is seconds, as storage-js sends it for the other uploads.
  const seconds = cacheControl ?? '3600';
  if (!/^\d{1,10}$/.test(seconds)) throw storageErrors.invalidRequest('Invalid cacheControl');
  return {
    bucketId: bucketName,
    name: validObjectName(objectName),
    mimetype: validMimeType(contentType || 'application/octet-stream'),
    cacheControl: validCacheControl(`max-age=${seconds}`),
    userMetadata: metadata ? parseMetadata(metadata) : null,
    upsert: headers.get('x-upsert') === 'true',
    owner: ownerOf(scope),
    size: Number(length),
  };
}

/** A refusal as the TUS route sends it: the storage error body, with its real status. */
function refusal(error: StorageError): Response {
  return Response.json(error.toJSON(), {
    status: error.statusCode,
    headers: { 'Tus-Resumable': '1.0.0', 'Cache-Control': 'no-store' },
  });
}

/**
 * `request` with a body that ends where the connection broke instead of failing there, so that
 * the bytes that arrived are kept and the client resumes after them. The TUS server keeps them
 * on an abort but throws them away on a body error, and which of the two it sees first when a
 * connection drops is up to the HTTP server; with @tus/s3-store a body error also loses the last
 * part collected from earlier requests (it is taken out of the bucket to be sent again).
 */
function keepingWhatArrived(request: Request): Request {
  if (!request.body) return request;
  const reader = request.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Request(request, { body, duplex: 'half' } as RequestInit);
}

const uploadNotFound = () => new StorageError(404, 'NoSuchUpload', 'Upload not found', 'not_found');

/**
 * Resumable uploads (TUS 1.0.0) at `/upload/resumable`, as Supabase Storage serves them: the
 * protocol is `@tus/server`'s, the rules are the normal upload's. Creating an upload checks the
 * caller's token, the bucket's size limit and MIME types, and a trial write of the row as the
 * caller (row-level security and the organisation's quota) before any byte is taken, and
 * reserves its declared length in the quota until its object is committed or it is gone. Only the
 * creator may continue, look at or cancel an upload. When the last byte arrives, the file is
 * copied into the object store and the row committed as the caller, which RLS and the quota
 * decide again; until then no object exists, so a half-sent file is never visible.
 */
export function resumableUploadRoutes(shared: SharedStorage, store: ResumableStore): Hono<ApiEnv> {
  // The caller of each request and its services (its database handle), and what a creation was
  // checked for, under the id its reservation holds, for the hooks the TUS server calls with
  // that request.
  const scopes = new WeakMap<Request, { scope: StorageScope; services: StorageServices }>();
  const checkedTargets = new WeakMap<Request, UploadTarget & { id: string }>();
  // Finishing runs once per upload even when a HEAD after a lost answer asks again meanwhile.
  const finishing = new Map<string, Promise<void>>();

  const finish = (
    upload: Upload,
    scope: StorageScope,
    services: StorageServices,
  ): Promise<void> => {
    let running = finishing.get(upload.id);
    if (!running) {
      running = commitUpload(upload, scope, services).finally(() => finishing.delete(upload.id));
      finishing.set(upload.id, running);
    }
    return running;
  };

  /** Copies a finished upload into the object store and commits its row as the caller. */
  async function commitUpload(
    upload: Upload,
    scope: StorageScope,
    services: StorageServices,
  ): Promise<void> {
    const target = targetFromMetadata(upload.metadata);
    if (!target) throw uploadNotFound();
    try {
      const bucket = await findBucket(services.db, target.bucketId);
      if (!bucket) throw storageErrors.noSuchBucket();
      const limit = checkBucketRules(services, bucket, target.mimetype, upload.size);
      const stored = await services.store.write(await store.readComplete(upload), limit);
      const metadata: ObjectMetadata = {
        eTag: stored.eTag,
        size: stored.size,
        sha256: stored.sha256,
        mimetype: target.mimetype,
        cacheControl: target.cacheControl,
        lastModified: new Date().toISOString(),
        contentLength: stored.size,
        httpStatusCode: 200,
      };
      const row: NewObjectRow = {
        id: randomUUID(),
        bucketId: target.bucketId,
        name: target.name,
        version: stored.version,
        metadata,
        userMetadata: target.userMetadata,
      };
      await commitRow(services, scope, row, target.upsert, upload.id);
    } catch (error) {
      // A refusal is final: nothing of the upload is kept. Anything else (the database busy,
      // the disk) leaves it to be finished by the client's next HEAD.
      if (error instanceof StorageError && error.statusCode < 500) {
        await store.remove(upload.id).catch(() => undefined);
        await releaseGoneUpload(services.db, upload.id);
      }
      throw error;
    }
    await store.markFinished(upload).catch((error: unknown) => {
      console.error(`storage: could not clear finished upload ${upload.id}:`, error);
    });
  }

  const tus = new TusServer({
    path: RESUMABLE_PATH,
    datastore: store.datastore,
    relativeLocation: true,
    maxSize: shared.fileSizeLimit,
    // The id its reservation was made under (see the POST route).
    namingFunction: (request) => {
      const target = checkedTargets.get(request);
      if (!target) throw uploadNotFound();
      return target.id;
    },
    // Creation is checked before the TUS server sees the request (see the POST route); the
    // upload keeps the checked values, never the client's header as sent.
    onUploadCreate: async (request) => {
      const target = checkedTargets.get(request);
      if (!target) throw uploadNotFound();
      return { metadata: targetToMetadata(target) };
    },
    onUploadFinish: async (request, upload) => {
      const caller = scopes.get(request);
      if (!caller) throw uploadNotFound();
      await finish(upload, caller.scope, caller.services);
      return {};
    },
    onResponseError: (_request, error) => {
      if (error instanceof StorageError) {
        return { status_code: error.statusCode, body: JSON.stringify(error.toJSON()) };
      }
      // The TUS server's own answers (wrong offset, expired upload…) carry a status; anything
      // else goes to the storage API's error handling, never as a message to the client.
      if ('status_code' in error) return undefined;
      throw error;
    },
  });

  /** Runs `request` through the TUS server as `scope`; refusals become storage errors. */
  const handle = async (
    request: Request,
    scope: StorageScope,
    services: StorageServices,
  ): Promise<Response> => {
    const handled = request.method === 'PATCH' ? keepingWhatArrived(request) : request;
    scopes.set(handled, { scope, services });
    return tus.handleWeb(handled);
  };

  /**
   * The upload `id` of the caller (`finished` when its object was committed), or the same "not
   * found" whether it is missing or another's.
   */
  const ownUpload = async (
    id: string,
    scope: StorageScope,
  ): Promise<{ upload: Upload; finished: boolean }> => {
    if (!isResumableUploadId(id)) throw uploadNotFound();
    const info = await store.describe(id);
    const target = info && targetFromMetadata(info.metadata);
    if (!info || !target || target.owner !== ownerOf(scope)) throw uploadNotFound();
    if (isFinished(info)) return { upload: info, finished: true };
    const upload = await store.current(id);
    if (!upload) throw uploadNotFound();
    return { upload, finished: false };
  };

  /** The TUS server's answer to HEAD for an upload that has every byte. */
  const complete = (size: number) =>
    new Response(null, {
      status: 200,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Cache-Control': 'no-store',
        'Upload-Offset': String(size),
        'Upload-Length': String(size),
      },
    });

  const app = new Hono<ApiEnv>();
  const answer = async (work: () => Promise<Response>): Promise<Response> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof StorageError && error.statusCode < 500) return refusal(error);
      throw error;
    }
  };

  app.post('/upload/resumable', (c) =>
    answer(async () => {
      const scope = requireCaller(c, 'storage.object.upload_resumable');
      const services = storageWith(shared, c.get('db'));
      const { size, ...target } = requestedTarget(c.req.raw, scope);
      const bucket = await findBucket(services.db, target.bucketId);
      if (!bucket) throw storageErrors.noSuchBucket();
      checkBucketRules(services, bucket, target.mimetype, size);
      await checkWritable(
        services,
        scope,
        {
          id: randomUUID(),
          bucketId: target.bucketId,
          name: target.name,
          version: randomUUID(),
          metadata: { mimetype: target.mimetype, contentLength: size },
          userMetadata: target.userMetadata,
        },
        target.upsert,
      );
      // Its declared length counts towards the quota until its object does (or it is gone).
      const id = randomUUID();
      await reserveUpload(services.db, {
        id,
        bucketId: target.bucketId,
        name: target.name,
        bytes: size,
      });
      checkedTargets.set(c.req.raw, { ...target, id });
      let created = false;
      try {
        const response = await handle(c.req.raw, scope, services);
        created = response.status === 201;
        return response;
      } finally {
        if (!created) await releaseGoneUpload(services.db, id);
      }
    }),
  );

  // Hono routes HEAD through GET; a GET itself is not served (an upload's bytes are nobody's to
  // read before they are an object).
  app.on(['GET', 'PATCH', 'DELETE'], '/upload/resumable/:id', (c) =>
    answer(async () => {
      if (c.req.method === 'GET') throw storageErrors.routeNotFound(c.req.method, c.req.path);
      const scope = requireCaller(c, 'storage.object.upload_resumable');
      const services = storageWith(shared, c.get('db'));
      const { upload, finished } = await ownUpload(c.req.param('id'), scope);
      const size = upload.size ?? 0;
      if (finished) {
        // The object exists: only the answer to its last chunk can have been lost.
        if (c.req.method === 'HEAD') return complete(size);
        throw uploadNotFound();
      }
      if (c.req.method === 'HEAD' && upload.offset === upload.size) {
        // Every byte arrived but the row could not be committed then (the database was busy):
        // finish now, since the client takes this answer as done.
        await finish(upload, scope, services);
        return complete(size);
      }
      const response = await handle(c.req.raw, scope, services);
      // Cancelled: its bytes are gone, and so is its room.
      if (c.req.method === 'DELETE' && response.status === 204) {
        await releaseGoneUpload(services.db, upload.id);
      }
      return response;
    }),
  );

  // Discovery (`OPTIONS` without a CORS preflight, which the API's CORS answers first).
  app.options('/upload/resumable', (c) => tus.handleWeb(c.req.raw));
  app.options('/upload/resumable/:id', (c) => tus.handleWeb(c.req.raw));

  return app;
}
