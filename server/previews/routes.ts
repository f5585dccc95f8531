import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { errorFormat } from '../http/api-error.ts';
import { inUserLane } from '../http/request-scope.ts';
import { recordDocumentLooks, recordsLooks } from '../storage/document-looks.ts';
import { StorageError, storageErrorFormat, storageErrors } from '../storage/errors.ts';
import { findObject, type ObjectRow } from '../storage/queries.ts';
import { preparedStorage } from '../storage/routes.ts';
import { runAsCaller, signedUrlScope } from '../storage/scope.ts';
import { serveObject } from '../storage/serve.ts';
import { verifySignedObjectToken } from '../storage/signed-url.ts';
import { officePreviewsOf } from './office-previews.ts';
import { previewPage } from './preview-page.ts';

/** A document's file as its caller may see it: the object and the document it belongs to. */
interface CallersDocument {
  object: ObjectRow;
  documentName: string;
  organizationId: string;
}

/** A file that cannot be previewed: the reason, which the app says beside Download. */
export const previewUnavailable = (reason: string) =>
  new StorageError(422, 'PreviewUnavailable', reason, 'Unprocessable Entity', 422);

/**
 * Previews of documents for the members who may view them (`/preview/v1`), from the address the
 * app's own signed link gives (`createSignedUrl`, one hour): its token is checked as at
 * `/storage/v1/object/sign/…`, and the file is read as the link's signer under row-level
 * security now, with its document (a member outside a restricted category, or no longer a
 * member, gets `NoSuchKey`, as for the file itself). The last segment of each address is the
 * document's name, which the browser shows as the title of what it opens (its PDF viewer):
 *
 * - `GET /file/{name}?token=…`: the file as `/object/sign/…` serves it (a PDF for the viewer);
 * - `GET /office/{name}?token=…`: a Word or Excel file rendered as sanitised HTML under a policy
 *   that lets it run nothing and load nothing (`preview-page.ts`), or `PreviewUnavailable` (422)
 *   with the reason.
 */
export function createPreviewsApp(ctx: AppContext): Hono<ApiEnv> {
  const { services } = preparedStorage(ctx);
  const previews = officePreviewsOf(ctx);

  /** The document behind the link's token, read as its signer in the signer's lane. */
  const callersDocument = async (
    c: Context<ApiEnv>,
    operation: string,
  ): Promise<CallersDocument> => {
    const token = c.req.query('token');
    if (!token) {
      throw storageErrors.invalidRequest("querystring must have required property 'token'");
    }
    const { bucketId, name, signer } = verifySignedObjectToken(services.urlSigningKey, token);
    if (bucketId !== 'documents') throw storageErrors.noSuchKey();
    const scope = signedUrlScope(c, signer, operation);
    const found = await runAsCaller(inUserLane(c, signer.sub), scope, async (tx) => {
      const object = await findObject(tx, bucketId, name);
      if (!object) return null;
      const { rows } = await tx.query<{ name: string; organization_id: string }>(
        `select name, organization_id::text from public.documents where file_path = $1`,
        [name],
      );
      if (!rows[0]) return null;
      // The look, in the same transaction as the read that found the file.
      if (c.req.method === 'GET' && recordsLooks(scope, bucketId)) {
        await recordDocumentLooks(tx, [name], 'viewed');
      }
      return { object, document: rows[0] };
    });
    if (!found) throw storageErrors.noSuchKey();
    return {
      object: found.object,
      documentName: found.document.name,
      organizationId: found.document.organization_id,
    } satisfies CallersDocument;
  };

  const app = new Hono<ApiEnv>();
  app.use('*', errorFormat(storageErrorFormat));

  app.get('/file/:name', async (c) => {
    const { object } = await callersDocument(c, 'steward.preview.file');
    return serveObject(services.store, object, {
      method: c.req.method,
      requestHeaders: c.req.raw.headers,
      download: undefined,
      filename: c.req.param('name'),
    });
  });

  app.get('/office/:name', async (c) => {
    const { object, documentName, organizationId } = await callersDocument(
      c,
      'steward.preview.office',
    );
    const preview = await previews.preview({
      version: object.version ?? '',
      name: documentName,
      mimeType: object.metadata?.mimetype ?? '',
      organizationId,
    });
    if (preview.state === 'unavailable') throw previewUnavailable(preview.reason);
    return previewPage(documentName, preview.html);
  });

  app.all('*', (c) => {
    throw storageErrors.routeNotFound(c.req.method, c.req.path);
  });
  return app;
}
