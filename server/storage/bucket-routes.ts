import { Hono } from 'hono';
import type { ApiEnv } from '../http/api-env.ts';
import { readJsonObject } from './body.ts';
import { allowedMimeTypes, fileSizeLimit, optionalBoolean } from './bucket-options.ts';
import { StorageError, storageErrors } from './errors.ts';
import { validNewBucketName } from './names.ts';
import { discard } from './object-rows.ts';
import { bucketParam } from './params.ts';
import { isoTimestamp } from './queries.ts';
import { ownerOf, requireCaller, runAsCaller } from './scope.ts';
import type { SharedStorage } from './services.ts';

const BUCKET_COLUMNS = `id, name, owner, public, type, file_size_limit, allowed_mime_types,
  ${isoTimestamp('created_at')} as created_at, ${isoTimestamp('updated_at')} as updated_at`;
// Storage's bucket list has `type`; one bucket (getBucket) has not.
const ONE_BUCKET_COLUMNS = `id, name, owner, public, file_size_limit, allowed_mime_types,
  ${isoTimestamp('created_at')} as created_at, ${isoTimestamp('updated_at')} as updated_at`;

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean | null;
  type?: string;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
}

/** `file_size_limit` is a bigint, which the database adapters return as text. */
const bucketJson = (row: BucketRow) => ({
  ...row,
  public: row.public === true,
  file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
});

const LIST_SORT_COLUMNS = new Set(['id', 'name', 'created_at', 'updated_at']);

/**
 * The bucket API under `/bucket`. Every statement runs as the caller, so the row-level security
 * of `storage.buckets` decides; with no policies only the service role manages buckets.
 */
export function bucketRoutes(services: SharedStorage): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get('/bucket', async (c) => {
    const scope = requireCaller(c, 'storage.bucket.list');
    const query = c.req.query();
    const limit = query.limit === undefined ? null : Number(query.limit);
    const offset = query.offset === undefined ? 0 : Number(query.offset);
    if (limit !== null && !(Number.isSafeInteger(limit) && limit >= 1)) {
      throw storageErrors.invalidRequest('querystring/limit must be >= 1');
    }
    if (!(Number.isSafeInteger(offset) && offset >= 0)) {
      throw storageErrors.invalidRequest('querystring/offset must be >= 0');
    }
    const column = query.sortColumn ?? 'name';
    if (!LIST_SORT_COLUMNS.has(column)) {
      throw storageErrors.invalidRequest(
        'querystring/sortColumn must be equal to one of the allowed values',
      );
    }
    const order = query.sortOrder === 'desc' ? 'desc' : 'asc';
    const search = (query.search ?? '').replace(/[\\%_]/g, (ch) => `\\${ch}`);
    const rows = await runAsCaller(c.get('db'), scope, async (tx) => {
      const result = await tx.query<BucketRow>(
        `select ${BUCKET_COLUMNS} from storage.buckets
          where name ilike $1 escape '\\'
          order by ${column} ${order}
          limit $2 offset $3`,
        [`%${search}%`, limit, offset],
      );
      return result.rows;
    });
    return c.json(rows.map(bucketJson));
  });

  app.get('/bucket/:id', async (c) => {
    const scope = requireCaller(c, 'storage.bucket.get');
    const id = bucketParam(c, ':id');
    const row = await runAsCaller(c.get('db'), scope, async (tx) => {
      const result = await tx.query<BucketRow>(
        `select ${ONE_BUCKET_COLUMNS} from storage.buckets where id = $1`,
        [id],
      );
      return result.rows[0];
    });
    if (!row) throw storageErrors.noSuchBucket();
    return c.json(bucketJson(row));
  });

  app.post('/bucket', async (c) => {
    const scope = requireCaller(c, 'storage.bucket.create');
    const body = await readJsonObject(c.req.raw);
    if (typeof body.name !== 'string') {
      throw storageErrors.invalidRequest("body must have required property 'name'");
    }
    const name = validNewBucketName(body.name);
    const id = validNewBucketName(typeof body.id === 'string' && body.id !== '' ? body.id : name);
    if (body.type !== undefined && body.type !== 'STANDARD') {
      throw new StorageError(
        409,
        'FeatureNotEnabled',
        'The feature iceberg_catalog is not enabled for this resource',
      );
    }
    const isPublic = optionalBoolean(body.public, 'public') ?? false;
    const limit = fileSizeLimit(body.file_size_limit, services.fileSizeLimit) ?? null;
    const mimeTypes = allowedMimeTypes(body.allowed_mime_types) ?? null;
    const { owner, ownerId } = ownerOf(scope);
    try {
      await runAsCaller(c.get('db'), scope, (tx) =>
        tx.query(
          `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [id, name, owner, ownerId, isPublic, limit, mimeTypes],
        ),
      );
    } catch (error) {
      if (error instanceof StorageError && error.code === 'KeyAlreadyExists') {
        throw storageErrors.bucketAlreadyExists();
      }
      throw error;
    }
    return c.json({ name });
  });

  app.put('/bucket/:id', async (c) => {
    const scope = requireCaller(c, 'storage.bucket.update');
    const id = bucketParam(c, ':id');
    const body = await readJsonObject(c.req.raw);
    const isPublic = optionalBoolean(body.public, 'public');
    const limit = fileSizeLimit(body.file_size_limit, services.fileSizeLimit);
    const mimeTypes = allowedMimeTypes(body.allowed_mime_types);
    if (isPublic === undefined && limit === undefined && mimeTypes === undefined) {
      throw storageErrors.noContent();
    }
    const updated = await runAsCaller(c.get('db'), scope, async (tx) => {
      const result = await tx.query(
        `update storage.buckets set
            public = case when $2 then $3 else public end,
            file_size_limit = case when $4 then $5::bigint else file_size_limit end,
            allowed_mime_types = case when $6 then $7::text[] else allowed_mime_types end,
            updated_at = now()
          where id = $1`,
        [
          id,
          isPublic !== undefined,
          isPublic ?? null,
          limit !== undefined,
          limit ?? null,
          mimeTypes !== undefined,
          mimeTypes ?? null,
        ],
      );
      return result.rowCount;
    });
    if (updated === 0) throw storageErrors.noSuchBucket();
    return c.json({ message: 'Successfully updated' });
  });

  app.delete('/bucket/:id', async (c) => {
    const scope = requireCaller(c, 'storage.bucket.delete');
    const id = bucketParam(c, ':id');
    const objects = await c
      .get('db')
      .query('select 1 from storage.objects where bucket_id = $1 limit 1', [id]);
    if (objects.rows.length > 0) throw storageErrors.bucketNotEmpty();
    let deleted: number;
    try {
      deleted = await runAsCaller(c.get('db'), scope, async (tx) => {
        const result = await tx.query('delete from storage.buckets where id = $1', [id]);
        return result.rowCount;
      });
    } catch (error) {
      // An object was added meanwhile: its foreign key holds the bucket.
      if (error instanceof StorageError && error.code === 'NoSuchBucket') {
        throw storageErrors.bucketNotEmpty();
      }
      throw error;
    }
    if (deleted === 0) throw storageErrors.noSuchBucket();
    return c.json({ message: 'Successfully deleted' });
  });

  app.post('/bucket/:id/empty', async (c) => {
    const scope = requireCaller(c, 'storage.bucket.empty');
    if (scope.caller.role !== 'service_role') {
      throw storageErrors.roleDenied('Access denied: Invalid role');
    }
    const id = bucketParam(c, ':id');
    const versions = await runAsCaller(c.get('db'), scope, async (tx) => {
      const bucket = await tx.query('select 1 from storage.buckets where id = $1', [id]);
      if (bucket.rows.length === 0) throw storageErrors.noSuchBucket();
      const result = await tx.query<{ version: string | null }>(
        'delete from storage.objects where bucket_id = $1 returning version',
        [id],
      );
      return result.rows.map((row) => row.version);
    });
    for (const version of versions) await discard(services, version);
    // Storage's text (it empties in the background there; here it is done when this answers).
    return c.json({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
  });

  return app;
}
