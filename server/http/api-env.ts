import type { Credentials } from './credentials.ts';

/**
 * What the API's middleware keeps on the Hono context for the services (`c.var`): the
 * request's credentials, read once by `credentials()`.
 */
export interface ApiEnv {
  Variables: {
    credentials: Credentials;
  };
}
