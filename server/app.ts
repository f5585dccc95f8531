import { Hono } from 'hono';
import { createAuthApp } from './auth/routes.ts';
import { createBackupApp } from './backup/routes.ts';
import type { AppContext } from './context.ts';
import { createFunctionsApp } from './functions/routes.ts';
import type { ApiEnv } from './http/api-env.ts';
import { respondToError } from './http/api-error.ts';
import { clientAddresses, compileProxyTrust } from './http/client-address.ts';
import { credentials } from './http/credentials.ts';
import { answerHeaders, requestLog } from './http/middleware.ts';
import { requestScope } from './http/request-scope.ts';
import { createPreviewsApp } from './previews/routes.ts';
import { createRequestsApp } from './requests/routes.ts';
import { readCacheFront } from './rest/read-cache-front.ts';
import { createRestApp } from './rest/routes.ts';
import { createSharingApp } from './sharing/routes.ts';
import { createSpaApp } from './spa/routes.ts';
import { createStorageApp } from './storage/routes.ts';

/** The whole embedded backend: the four Supabase services and the SPA on one origin. */
export async function createApp(ctx: AppContext): Promise<Hono<ApiEnv>> {
  const app = new Hono<ApiEnv>();
  app.use('*', requestLog(ctx.config.logRequests));

  const api = new Hono<ApiEnv>();
  api.use(
    '*',
    clientAddresses(compileProxyTrust(ctx.config.trustedProxies)),
    ...answerHeaders(),
    credentials(ctx.keys.jwtSecret),
    requestScope(ctx.db),
  );
  api.route('/auth/v1', createAuthApp(ctx));
  api.route('/rest/v1', createRestApp(ctx));
  api.route('/storage/v1', createStorageApp(ctx));
  api.route('/functions/v1', await createFunctionsApp(ctx));
  api.route('/backup/v1', createBackupApp(ctx));
  // Steward's own previews of members' documents: Word and Excel rendered here, and PDFs under
  // an address that ends with the document's name.
  api.route('/preview/v1', createPreviewsApp(ctx));
  // Steward's own services for people without an account: share links and document requests.
  api.route('/share/v1', createSharingApp(ctx));
  api.route('/requests/v1', createRequestsApp(ctx));
  // The SPA reads this at boot, so one build runs on any host and port. The API is on the
  // same origin as the page, so the address is the origin the browser used.
  api.get('/config.json', (c) =>
    c.json({ supabaseUrl: new URL(c.req.url).origin, supabaseAnonKey: ctx.keys.anonKey }),
  );
  app.route('/', api);
  app.route('/', createSpaApp(ctx));

  // Errors of any request reach this, some before `requestScope()` gave them a scope: the
  // handler reads only the error format and the credentials, which every request has.
  app.onError((error, c) =>
    respondToError(error, c as unknown as Parameters<typeof respondToError>[1]),
  );
  return app;
}

/**
 * What the Node server calls for each request: the app, behind the REST read cache's front on
 * PGlite (a repeated table read answered before Hono runs, rest/read-cache-front.ts).
 */
export function serverFetch(ctx: AppContext, app: Hono<ApiEnv>): Hono<ApiEnv>['fetch'] {
  const front = readCacheFront(ctx, answerHeaders);
  return front ? front(app.fetch) : app.fetch;
}
