/**
 * What every edge function of this project is made of, in both modes:
 * - hosted (Supabase's Deno edge runtime): `index.ts` calls
 *   `Deno.serve(createHandler(Deno.env.toObject()))`;
 * - local (the embedded backend, `server/functions/`): the server imports `handler.ts` and calls
 *   `createHandler` once with an environment of its own.
 *
 * Code in a function folder is web-standard TypeScript (fetch, Request, Response, Web Crypto):
 * no Node or Deno imports, so the same file runs on both.
 */

/**
 * The environment a handler is built with: plain strings. Always present: `SUPABASE_URL`,
 * `SUPABASE_ANON_KEY`, `SUPABASE_SERVICE_ROLE_KEY`; plus the function's own values
 * (for example `OAUTH_TOKEN_KEY` for `oauth`).
 */
export type FunctionEnv = Readonly<Record<string, string | undefined>>;

/** A request handler, as `Deno.serve` takes it. */
export type FunctionHandler = (request: Request) => Promise<Response>;

/** The export every `handler.ts` provides. */
export type CreateHandler = (env: FunctionEnv) => FunctionHandler;

/** Reads a required value, failing at start-up (not on the first request) when it is missing. */
export function requireEnv(env: FunctionEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
