/**
 * A very small PostgREST client over `fetch`. supabase-js is not used here because its
 * constructor needs a WebSocket implementation that Node 20 lacks, and the function must stay
 * free of Node imports to run on Deno. The requests are the ones supabase-js would send.
 */
export type Filters = Record<string, string>;

export interface RestOptions {
  /** PostgREST query parameters: `select`, filters such as `id: 'eq.…'`, `or`, `order`, `limit`. */
  query?: Filters;
  body?: unknown;
  /** Extra `Prefer` values, e.g. `resolution=merge-duplicates`. */
  prefer?: string[];
}

/** A database call failed: a bug or an outage, never the caller's mistake. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what} failed with HTTP ${status}: ${body.slice(0, 500)}`);
  }
}

export class RestClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    /** The bearer token: the service-role key, or a user's access token for RLS reads. */
    private readonly bearer: string,
  ) {}

  /** GET: the matching rows. */
  select<T>(table: string, query: Filters): Promise<T[]> {
    return this.send<T[]>('GET', `/rest/v1/${table}`, { query });
  }

  /** POST: the inserted rows. */
  insert<T>(table: string, body: unknown, options: Omit<RestOptions, 'body'> = {}): Promise<T[]> {
    return this.send<T[]>('POST', `/rest/v1/${table}`, {
      ...options,
      body,
      prefer: ['return=representation', ...(options.prefer ?? [])],
    });
  }

  /** PATCH: the updated rows (an empty list when the filters matched nothing). */
  update<T>(table: string, query: Filters, body: unknown): Promise<T[]> {
    return this.send<T[]>('PATCH', `/rest/v1/${table}`, {
      query,
      body,
      prefer: ['return=representation'],
    });
  }

  /** DELETE: the deleted rows. */
  delete<T>(table: string, query: Filters): Promise<T[]> {
    return this.send<T[]>('DELETE', `/rest/v1/${table}`, {
      query,
      prefer: ['return=representation'],
    });
  }

  private async send<T>(method: string, path: string, options: RestOptions): Promise<T> {
    const url = new URL(this.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      url.searchParams.append(name, value);
    }
    const headers: Record<string, string> = {
      apikey: this.apiKey,
      Authorization: `Bearer ${this.bearer}`,
      Accept: 'application/json',
    };
    if (options.prefer?.length) headers.Prefer = options.prefer.join(',');
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    if (!response.ok) throw new RestError(response.status, text, `${method} ${path}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}
