import type { ErrorFormat } from './api-error.ts';
import type { Credentials } from './credentials.ts';

/** What the API's middleware keeps on the Hono context for the services (`c.var`). */
export interface ApiEnv {
  Variables: {
    /** The request's credentials, read once by `credentials()`. */
    credentials: Credentials;
    /** The error format of the service handling the request, set by `errorFormat()`. */
    errorFormat?: ErrorFormat;
  };
}
