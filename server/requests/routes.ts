import type { Context } from 'hono';
import { Hono } from 'hono';
import { randomBytes, randomUUID } from 'node:crypto';
import { requestRateLimiter } from '../auth/request-rate-limit.ts';
import { limiterAddress } from '../auth/request-info.ts';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { errorFormat } from '../http/api-error.ts';
import { linkErrorFormat, linkErrors } from '../links/errors.ts';
import { tokenParam } from '../links/requests.ts';
import { bodyChunks, declaredLength } from '../storage/body.ts';
import { StorageError } from '../storage/errors.ts';
import { multipartBoundary, readMultipartUpload } from '../storage/multipart.ts';
import { commitRowWith } from '../storage/object-rows.ts';
import { findBucket } from '../storage/queries.ts';
import { preparedStorage } from '../storage/routes.ts';
import { storageWith } from '../storage/services.ts';
import type { AcceptedType } from './accepted-file.ts';
import { acceptedType, checkedHead } from './accepted-file.ts';

/** What the upload page of a link shows, as `private.document_request_page` returns it. */
interface RequestPage {
  organization_name: string;
  requested_by: string | null;
  title: string;
  instructions: string | null;
  expiry_required: boolean;
  due_date: string | null;
  recipient_name: string;
  recipient_email: string | null;
  renews_document_name: string | null;
  renews_expiry_date: string | null;
  link_expires_at: string;
}

/** The fields the page sends before the file (a form's fields, in this order, then the file). */
const FIELD_LIMITS = { fields: 8, fieldBytes: 8 * 1024, headerBytes: 16 * 1024 };
/** Room in a request for the form's fields and multipart framing, beyond the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A size limit as a person reads it: `50 MB`, or `200 KB` below a megabyte. */
const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Math.floor(bytes / (1024 * 1024))} MB`
    : `${Math.max(1, Math.floor(bytes / 1024))} KB`;

/** `yyyy-mm-dd`, or null for an empty field; anything else is refused. */
function dateField(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    throw linkErrors.invalid('Please enter the expiry date as a date');
  }
  return text;
}

/**
 * Document requests' links (`/requests/v1`, supabase/schemas/22_document_requests.sql): the
 * upload page's details (`GET /{token}`) and the upload itself (`POST /{token}`,
 * `multipart/form-data` with the fields `submitter_name`, `submitter_email`, `expiry_date` and
 * `file_name` before the file). An upload has the bounds of any upload: uploads per client
 * address an hour (here) and documents per organisation an hour (the database); the accepted
 * types, checked on the file's first bytes before anything is stored; the storage's file size
 * limit and the organisation's quota, counted while the bytes arrive and again by the quota's
 * trigger when the row is written. The bytes go through the storage server's file store (a
 * temporary file, flushed, then renamed); the object's row and the document are written in one
 * transaction, or neither is and the file is deleted.
 */
export function createRequestsApp(ctx: AppContext): Hono<ApiEnv> {
  const { config } = ctx;
  const { services, ready } = preparedStorage(ctx);
  const maxKeys = config.auth.limiterMaxKeys;
  const pageViews = requestRateLimiter(ctx.db, {
    name: 'requests.page_views',
    limit: config.sharing.openingsPerMinute,
    windowMs: 60_000,
    maxKeys,
  });
  const uploads = requestRateLimiter(ctx.db, {
    name: 'requests.uploads',
    limit: config.requests.uploadsPerAddressPerHour,
    windowMs: 3_600_000,
    maxKeys,
  });

  const app = new Hono<ApiEnv>();
  app.use('*', errorFormat(linkErrorFormat));

  app.get('/:token', async (c) => {
    const db = c.get('db');
    const retryAfter = await pageViews.take(c.get('db'), limiterAddress(c));
    if (retryAfter > 0) throw linkErrors.rateLimited(retryAfter);
    const { rows } = await db.query<RequestPage>(
      `select organization_name, requested_by, title, instructions, expiry_required,
              due_date::text, recipient_name, recipient_email, renews_document_name,
              renews_expiry_date::text, ${iso('link_expires_at')} as link_expires_at
       from private.document_request_page($1)`,
      [tokenParam(c)],
    );
    const bucket = await findBucket(db, 'documents');
    return c.json({
      ...rows[0]!,
      max_file_bytes: Math.min(config.storage.fileSizeLimit, bucket?.fileSizeLimit ?? Infinity),
    });
  });

  app.post('/:token', async (c) => {
    const retryAfter = await uploads.take(c.get('db'), limiterAddress(c));
    if (retryAfter > 0) {
      throw linkErrors.rateLimited(
        retryAfter,
        'Too many files were sent from here in the last hour. Please try again later.',
      );
    }
    const token = tokenParam(c);
    return c.json(await receive(c, token), 201);
  });

  async function receive(c: Context<ApiEnv>, token: string) {
    const db = c.get('db');
    const bucket = await findBucket(db, 'documents');
    const sizeLimit = Math.min(config.storage.fileSizeLimit, bucket?.fileSizeLimit ?? Infinity);
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType)) {
      throw linkErrors.invalid('Send the file as multipart/form-data');
    }
    const length = declaredLength(c.req.raw.headers);
    if (length !== undefined && length > sizeLimit + FORM_OVERHEAD_BYTES) {
      throw linkErrors.tooLarge(`The file is larger than ${sizeText(sizeLimit)}.`);
    }
    try {
      const form = await readMultipartUpload(
        bodyChunks(c.req.raw.body, length),
        multipartBoundary(contentType),
        FIELD_LIMITS,
      );
      const fileName = (form.fields.get('file_name') ?? '').trim();
      const sender = {
        name: form.fields.get('submitter_name') ?? '',
        email: form.fields.get('submitter_email') ?? '',
        expiryDate: dateField(form.fields.get('expiry_date')),
      };
      if (!form.file) throw linkErrors.invalid('Please choose the file to send');

      // Everything but the bytes, before the first byte is read: a link that does not work, a
      // missing name or date, the organisation's hourly bound; and the room its quota has left.
      const { rows } = await db.query<{ organization_id: string; room: string }>(
        'select organization_id, room::text from private.check_requested_document($1, $2, $3, $4)',
        [token, sender.name, sender.email, sender.expiryDate],
      );
      const { organization_id: organizationId, room } = rows[0]!;
      const roomBytes = Number(room);
      const limit = Math.min(sizeLimit, roomBytes);

      let type: AcceptedType | undefined;
      const body = checkedHead(form.file.body, (head) => {
        const result = acceptedType(fileName, head);
        if (!result.ok) throw linkErrors.unsupportedType(result.reason);
        type = result.type;
      });
      await ready;
      let stored;
      try {
        stored = await services.store.write(body, limit);
      } catch (error) {
        if (error instanceof StorageError && error.code === 'EntityTooLarge') {
          throw roomBytes < sizeLimit
            ? linkErrors.storageFull(
                'The organization that asked for this document has no room left for it. Please let them know.',
              )
            : linkErrors.tooLarge(`The file is larger than ${sizeText(sizeLimit)}.`);
        }
        throw error;
      }
      const accepted = type!;
      const name = `documents/${organizationId}/${Date.now()}-${randomBytes(8).toString('hex')}.${accepted.extension}`;
      const document = await commitRowWith(
        storageWith(services, db),
        {
          id: randomUUID(),
          bucketId: 'documents',
          name,
          version: stored.version,
          metadata: {
            eTag: stored.eTag,
            size: stored.size,
            sha256: stored.sha256,
            mimetype: accepted.mimetype,
            cacheControl: 'no-cache',
            lastModified: new Date().toISOString(),
            contentLength: stored.size,
            httpStatusCode: 200,
          },
          userMetadata: null,
        },
        async (tx) => {
          const { rows: received } = await tx.query<{ document_name: string }>(
            `select document_name
             from private.receive_requested_document($1, $2, $3, $4, $5, $6)`,
            [token, name, fileName, sender.name, sender.email, sender.expiryDate],
          );
          return received[0]!;
        },
      );
      return { document_name: document.document_name };
    } catch (error) {
      if (error instanceof StorageError) {
        // The storage code's refusals of the body, in this service's words.
        if (error.code === 'Aborted') throw linkErrors.aborted();
        throw linkErrors.invalid(error.message);
      }
      throw error;
    }
  }

  app.all('*', () => {
    throw linkErrors.notFound('Not found');
  });
  return app;
}
