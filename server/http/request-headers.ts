/**
 * The one rule for which request headers a statement run as the caller sees in
 * `request.headers`, in REST and storage alike: every header, its name lower-cased (as `Headers`
 * gives it), except `cookie`.
 *
 * Why this rule: it is PostgREST's (supabase-compat.md §3.9), so a policy or function written
 * for Supabase reads the same keys here, and Supabase's storage server passes the request's
 * headers too. `authorization` and `apikey` stay in, as there: the token is the caller's own,
 * and its claims are in `request.jwt.claims` anyway. Cookies stay out, as PostgREST keeps them
 * out of `request.headers`: the API goes by tokens, never by cookies, and the cookies a browser
 * attaches belong to whatever else is served from the same origin.
 */
export function isPassedToPostgres(name: string): boolean {
  return name !== 'cookie';
}

/** The request's headers as `request.headers` holds them (see `isPassedToPostgres`). */
export function postgresHeaders(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (isPassedToPostgres(name)) result[name] = value;
  });
  return result;
}
