import type { ErrorFormatEnv } from './api-error.ts';
import type { ClientAddressEnv } from './client-address.ts';
import type { CredentialsEnv } from './credentials.ts';
import type { RequestScopeEnv } from './request-scope.ts';

/**
 * What the API's middleware keeps on the Hono context for the services (`c.var`): the request's
 * client address, found once by `clientAddresses()`, its credentials, read once by
 * `credentials()`, and the error format of the service handling the request, set by
 * `errorFormat()`, and its scope and database handle, set by `requestScope()`. Each middleware declares its own part, so that none imports this whole.
 */
export interface ApiEnv {
  Variables: CredentialsEnv['Variables'] &
    ErrorFormatEnv['Variables'] &
    ClientAddressEnv['Variables'] &
    RequestScopeEnv['Variables'];
}
