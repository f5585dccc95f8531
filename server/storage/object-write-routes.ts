import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import type { ApiEnv } from '../http/api-env.ts';
import { inUserLane } from '../http/request-scope.ts';
import { readJsonObject } from './body.ts';
import { storageErrors } from './errors.ts';
import { validObjectName } from './names.ts';
import { copyObject, moveObject } from './object-copy.ts';
import { discard } from './object-rows.ts';
import { checkUploadAllowed, uploadObject } from './object-write.ts';
import { bucketParam, existingBucketName, objectParams } from './params.ts';
import type { ObjectRow } from './queries.ts';
import { findObject, OBJECT_COLUMNS } from './queries.ts';
import { requiredString, storableName, stringList } from './request-fields.ts';
import { requireCaller, runAsCaller, signedUrlScope } from './scope.ts';
import type { SharedStorage } from './services.ts';
import { storageWith } from './services.ts';
import { signedUploadUrl, signerOf, verifySignedUploadUrl } from './signed-url.ts';
import { claimUploadToken, releaseUploadToken } from './upload-tokens.ts';

/** Source and destination of a move or copy request (the destination bucket defaults to the source's). */
function relocation(body: Record<string, unknown>) {
  const bucketId = existingBucketName(requiredString(body, 'bucketId'));
  const destination = body.destinationBucket;
  return {
    bucketId,
    sourceKey: validObjectName(requiredString(body, 'sourceKey')),
    destinationBucket:
      typeof destination === 'string' && destination !== ''
        ? existingBucketName(destination)
        : bucketId,
    destinationKey: validObjectName(requiredString(body, 'destinationKey')),
  };
}

/**
 * Whether Node has received the whole request, body included (`IncomingMessage.complete`, set
 * when its parser reaches the message's end, before the body is read); false without a Node
 * request (`app.request` in process).
 */
function bodyReceived(c: Context<ApiEnv>): boolean {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.complete === true;
}

/**
 * The writing half of the object API under `/object` (supabase-compat.md §4.1): uploads,
 * updates, signed uploads, removal, move and copy.
 */
export function objectWriteRoutes(shared: SharedStorage): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  /** Deletes the files of deleted rows, after their transaction committed. */
  const discardAll = async (rows: { version: string | null }[]) => {
    for (const { version } of rows) await discard(shared, version);
  };

  app.post('/object/move', async (c) => {
    const scope = requireCaller(c, 'storage.object.move');
    const names = relocation(await readJsonObject(c.req.raw));
    return c.json(await moveObject(storageWith(shared, c.get('db')), scope, names));
  });

  app.post('/object/copy', async (c) => {
    const scope = requireCaller(c, 'storage.object.copy');
    const names = relocation(await readJsonObject(c.req.raw));
    const upsert = c.req.header('x-upsert') === 'true';
    return c.json(await copyObject(storageWith(shared, c.get('db')), scope, { ...names, upsert }));
  });

  app.post('/object/upload/sign/:bucket/*', async (c) => {
    const scope = requireCaller(c, 'storage.object.sign_upload_url');
    const { bucketId, name } = objectParams(c);
    const upsert = c.req.header('x-upsert') === 'true';
    await checkUploadAllowed(storageWith(shared, c.get('db')), scope, { bucketId, name, upsert });
    return c.json(
      signedUploadUrl(shared.urlSigningKey, bucketId, name, signerOf(scope.caller), {
        upsert,
        maxSeconds: shared.maxSignedUrlExpirySeconds,
      }),
    );
  });

  // The upload runs as the URL's signer under RLS, and the URL works once: its token is marked
  // used once the signer's rights are checked, and given back if the upload then fails. A reused
  // URL gets the storage server's answer to a second upload through a URL without upsert.
  app.put('/object/upload/sign/:bucket/*', async (c) => {
    const { bucketId, name } = objectParams(c);
    const token = c.req.query('token');
    if (!token)
      throw storageErrors.invalidRequest("querystring must have required property 'token'");
    const signed = verifySignedUploadUrl(shared.urlSigningKey, token, bucketId, name);
    const scope = signedUrlScope(c, signed.signer, 'storage.object.upload_signed');
    let claimed = false;
    try {
      // In the signer's lane, as the signer's own upload would be.
      const signers = storageWith(shared, inUserLane(c, signed.signer.sub));
      const { Key } = await uploadObject(signers, scope, {
        bucketId,
        name,
        upsert: signed.upsert,
        request: c.req.raw,
        beforeBody: async () => {
          if (!(await claimUploadToken(signers.db, signed.tokenId, signed.expiresAt))) {
            throw storageErrors.keyAlreadyExists();
          }
          claimed = true;
        },
      });
      return c.json({ Key });
    } catch (error) {
      if (claimed) await releaseUploadToken(c.get('db'), signed.tokenId);
      throw error;
    }
  });

  app.delete('/object/:bucket', async (c) => {
    const scope = requireCaller(c, 'storage.object.delete_many');
    const bucketId = bucketParam(c);
    const body = await readJsonObject(c.req.raw);
    const names = stringList(body.prefixes, 'prefixes')
      .map(storableName)
      .filter((name) => name !== null);
    const deleted = await runAsCaller(c.get('db'), scope, async (tx) => {
      const { rows } = await tx.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning ${OBJECT_COLUMNS}`,
        [bucketId, names],
      );
      return rows;
    });
    await discardAll(deleted);
    return c.json(deleted);
  });

  app.delete('/object/:bucket/*', async (c) => {
    const scope = requireCaller(c, 'storage.object.delete');
    const { bucketId, name } = objectParams(c);
    const deleted = await runAsCaller(c.get('db'), scope, async (tx) => {
      const { rows } = await tx.query<{ version: string | null }>(
        'delete from storage.objects where bucket_id = $1 and name = $2 returning version',
        [bucketId, name],
      );
      // Nothing deleted: as the storage server, "Access denied" for an object the caller may
      // not remove; but "Object not found" also when it exists unseen (it tells nobody of
      // another organisation's names, where the storage server would say "Access denied").
      if (rows.length === 0) {
        throw (await findObject(tx, bucketId, name))
          ? storageErrors.accessDenied()
          : storageErrors.noSuchKey();
      }
      return rows;
    });
    await discardAll(deleted);
    return c.json({ message: 'Successfully deleted' });
  });

  app.post('/object/:bucket/*', async (c) => {
    const scope = requireCaller(c, 'storage.object.upload');
    const { bucketId, name } = objectParams(c);
    const upsert = c.req.header('x-upsert') === 'true';
    return c.json(
      await uploadObject(storageWith(shared, c.get('db')), scope, {
        bucketId,
        name,
        upsert,
        request: c.req.raw,
        bodyReceived: () => bodyReceived(c),
      }),
    );
  });

  app.put('/object/:bucket/*', async (c) => {
    const scope = requireCaller(c, 'storage.object.upload_update');
    const { bucketId, name } = objectParams(c);
    return c.json(
      await uploadObject(storageWith(shared, c.get('db')), scope, {
        bucketId,
        name,
        upsert: true,
        request: c.req.raw,
        bodyReceived: () => bodyReceived(c),
      }),
    );
  });

  return app;
}
