import type { TestServer } from '../support/server.ts';

/**
 * A raw HTTP call to `/rest/v1`, for what supabase-js does not expose (status details, headers,
 * malformed requests). Sends the headers supabase-js sends; `token` defaults to the service key.
 */
export async function rest(
  server: TestServer,
  path: string,
  init: RequestInit & { token?: string } = {},
): Promise<{ status: number; headers: Headers; text: string; json: unknown }> {
  const { token = server.keys.serviceRoleKey, headers, ...rest } = init;
  const response = await fetch(`${server.url}/rest/v1${path}`, {
    ...rest,
    headers: {
      apikey: server.keys.anonKey,
      Authorization: `Bearer ${token}`,
      ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(headers as Record<string, string>),
    },
  });
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
