import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ApiEnv } from '../http/api-env.ts';
import { inUserLane } from '../http/request-scope.ts';
import { readJsonObject } from './body.ts';
import { storageErrors } from './errors.ts';
import { listObjects, parseListBody } from './list.ts';
import { bucketParam, objectParams } from './params.ts';
import type { ObjectRow } from './queries.ts';
import { findBucket, findObject, findObjectAsCaller, readObjectsAsCaller } from './queries.ts';
import { storableName, stringList } from './request-fields.ts';
import type { DocumentLook } from './document-looks.ts';
import type { StorageScope } from './scope.ts';
import { optionalCaller, requireCaller, runAsCaller, signedUrlScope } from './scope.ts';
import { serveObject } from './serve.ts';
import type { ScopedDatabase } from '../db/database.ts';
import type { SharedStorage } from './services.ts';
import { signedObjectUrl, signerOf, validExpiresIn, verifySignedObjectUrl } from './signed-url.ts';

/**
 * The reading half of the object API under `/object` (supabase-compat.md §4.1): downloads,
 * info, listings and signed or public URLs. Mounted before the writing half, whose
 * `/object/:bucket/*` routes would otherwise take `list`, `sign`… for bucket names.
 */
export function objectReadRoutes(services: SharedStorage): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const { store } = services;

  /**
   * Finds an object for reading: as the caller under RLS (recording `look` at a document file
   * in the same read), or as the server for public buckets.
   */
  async function readableObject(
    db: ScopedDatabase,
    scope: StorageScope | null,
    bucketId: string,
    name: string,
    look?: DocumentLook,
  ): Promise<ObjectRow> {
    const bucket = await findBucket(db, bucketId);
    if (!bucket || (!scope && !bucket.public)) throw storageErrors.noSuchBucket();
    const row =
      bucket.public || !scope
        ? await findObject(db, bucketId, name)
        : await findObjectAsCaller(db, scope, bucketId, name, look);
    if (!row) throw storageErrors.noSuchKey();
    return row;
  }

  const serve = (c: Context<ApiEnv>, row: ObjectRow) =>
    serveObject(store, row, {
      method: c.req.method,
      requestHeaders: c.req.raw.headers,
      download: c.req.query('download'),
    });

  // Storage's newer listing (storage-js `listV2`). Not offered here; its path is Storage's, never
  // an upload into a bucket named `list-v2`, so it is answered as a Storage without it would.
  app.post('/object/list-v2/*', (c) => {
    throw storageErrors.routeNotFound(c.req.method, c.req.path);
  });

  app.post('/object/list/:bucket', async (c) => {
    const scope = requireCaller(c, 'storage.object.list');
    const bucketId = bucketParam(c);
    const options = parseListBody(await readJsonObject(c.req.raw));
    const entries = await runAsCaller(c.get('db'), scope, (tx) =>
      listObjects(tx, bucketId, options),
    );
    return c.json(entries);
  });

  app.post('/object/sign/:bucket', async (c) => {
    const scope = requireCaller(c, 'storage.object.sign_many');
    const bucketId = bucketParam(c);
    const body = await readJsonObject(c.req.raw);
    const expiresIn = validExpiresIn(body.expiresIn, services.maxSignedUrlExpirySeconds);
    const paths = stringList(body.paths, 'paths');
    const names = paths.map(storableName);
    // The names go as one JSON text, which both drivers send as it is (not every driver
    // writes a JavaScript array in a batch as a Postgres array).
    const read = {
      sql: `select name from storage.objects
             where bucket_id = $1 and name = any (array(select jsonb_array_elements_text($2::jsonb)))`,
      params: [bucketId, JSON.stringify(names.filter((name) => name !== null))],
    };
    const found = await readObjectsAsCaller(
      c.get('db'),
      scope,
      bucketId,
      read,
      (rows) => new Set(rows.map((row) => row.name as string)),
      'viewed',
    );
    return c.json(
      paths.map((path, index) => {
        const name = names[index];
        return name !== null && name !== undefined && found.has(name)
          ? {
              error: null,
              path,
              signedURL: signedObjectUrl(
                services.urlSigningKey,
                bucketId,
                name,
                expiresIn,
                signerOf(scope.caller),
              ),
            }
          : {
              error: 'Either the object does not exist or you do not have access to it',
              path,
              signedURL: null,
            };
      }),
    );
  });

  app.post('/object/sign/:bucket/*', async (c) => {
    const scope = requireCaller(c, 'storage.object.sign');
    const { bucketId, name } = objectParams(c);
    const body = await readJsonObject(c.req.raw);
    const expiresIn = validExpiresIn(body.expiresIn, services.maxSignedUrlExpirySeconds);
    // Image transformation is a feature of Storage that is off here, as on a project without it;
    // a URL that serves the original bytes for a resized image would be a wrong answer.
    if (body.transform !== undefined) throw storageErrors.featureNotEnabled('imageTransformation');
    const row = await findObjectAsCaller(c.get('db'), scope, bucketId, name, 'viewed');
    if (!row) throw storageErrors.noSuchKey();
    return c.json({
      signedURL: signedObjectUrl(
        services.urlSigningKey,
        bucketId,
        name,
        expiresIn,
        signerOf(scope.caller),
      ),
    });
  });

  // A signed URL needs no token, but it is no permission of its own: the object is read as the
  // URL's signer under RLS, so it stops working when the signer may no longer read it.
  app.get('/object/sign/:bucket/*', async (c) => {
    const { bucketId, name } = objectParams(c);
    const token = c.req.query('token');
    if (!token)
      throw storageErrors.invalidRequest("querystring must have required property 'token'");
    const signer = verifySignedObjectUrl(services.urlSigningKey, token, bucketId, name);
    const scope = signedUrlScope(c, signer, 'storage.object.get_signed');
    // In the signer's lane, with the record of the look (it reads as the signer's request).
    const look = c.req.method === 'GET' ? 'viewed' : undefined;
    const row = await findObjectAsCaller(inUserLane(c, signer.sub), scope, bucketId, name, look);
    if (!row) throw storageErrors.noSuchKey();
    return serve(c, row);
  });

  // Public URLs need no token: the bucket's `public` flag is the permission, so the object is
  // read with the server's own connection.

  app.get('/object/public/:bucket/*', async (c) => {
    const { bucketId, name } = objectParams(c);
    return serve(c, await readableObject(c.get('db'), null, bucketId, name));
  });

  const info = async (c: Context<ApiEnv>, isPublic: boolean) => {
    const { bucketId, name } = objectParams(c);
    const scope = isPublic ? null : requireCaller(c, 'storage.object.info');
    const row = await readableObject(c.get('db'), scope, bucketId, name);
    const metadata = row.metadata ?? {};
    return c.json({
      id: row.id,
      name: row.name,
      version: row.version,
      bucket_id: row.bucket_id,
      size: metadata.size ?? null,
      content_type: metadata.mimetype ?? null,
      cache_control: metadata.cacheControl ?? null,
      etag: metadata.eTag ?? null,
      metadata: row.user_metadata ?? {},
      last_modified: row.updated_at,
      created_at: row.created_at,
    });
  };
  app.get('/object/info/public/:bucket/*', (c) => info(c, true));
  app.get('/object/info/authenticated/:bucket/*', (c) => info(c, false));
  app.get('/object/info/:bucket/*', (c) => info(c, false));

  app.get('/object/authenticated/:bucket/*', async (c) => {
    const scope = requireCaller(c, 'storage.object.get_authenticated');
    const { bucketId, name } = objectParams(c);
    const look = c.req.method === 'GET' ? 'downloaded' : undefined;
    return serve(c, await readableObject(c.get('db'), scope, bucketId, name, look));
  });

  // Without a valid token this serves public buckets only (the storage server's
  // `allowInvalidJwt` route). HEAD, which storage-js `exists` sends, is answered here too.
  app.get('/object/:bucket/*', async (c) => {
    const scope = optionalCaller(c, 'storage.object.get_authenticated');
    const { bucketId, name } = objectParams(c);
    const look = c.req.method === 'GET' ? 'downloaded' : undefined;
    return serve(c, await readableObject(c.get('db'), scope, bucketId, name, look));
  });

  return app;
}
