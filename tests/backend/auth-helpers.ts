import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { TestServer } from '../support/server.ts';

/** A fresh e-mail address per call, so tests never collide on one server. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.test`;
}

export const PASSWORD = 'correct horse battery staple';

export interface AuthRequestOptions {
  method?: string;
  /** A JSON value to send, or a raw string body. */
  body?: unknown;
  /** Bearer token; defaults to the anon key, as auth-js sends it. */
  token?: string | null;
  /** Send `X-Supabase-Api-Version: 2024-01-01` as auth-js does (default true). */
  apiVersion?: boolean;
  headers?: Record<string, string>;
}

export interface AuthResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | null;
}

/** A raw request to `/auth/v1`, for the details supabase-js does not show. */
export async function authRequest(
  server: TestServer,
  path: string,
  options: AuthRequestOptions = {},
): Promise<AuthResponse> {
  const headers: Record<string, string> = { apikey: server.keys.anonKey, ...options.headers };
  const token = options.token === undefined ? server.keys.anonKey : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.apiVersion !== false) headers['x-supabase-api-version'] = '2024-01-01';
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json;charset=UTF-8';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${server.url}/auth/v1${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

/** Signs up through the raw API and returns the session body. */
export async function signUpRaw(
  server: TestServer,
  email: string,
  password = PASSWORD,
  data: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response = await authRequest(server, '/signup', { body: { email, password, data } });
  if (response.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  return response.body!;
}

/** The payload of a JWT, unverified (the tests check what the server put there). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

export function jwtHeader(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * A raw request to `/auth/v1` from the client address `from` (any of 127.0.0.0/8, which all
 * reach a server on 127.0.0.1), for the limits kept per client address.
 */
export function authRequestFrom(
  server: Pick<TestServer, 'url' | 'keys'>,
  from: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<AuthResponse> {
  return requestFrom(server, from, `/auth/v1${path}`, body, headers);
}

/**
 * A raw JSON `POST` to `path` from the client address `from`, with the anon key unless
 * `headers` name another, and any further headers (such as `X-Forwarded-For`).
 */
export function requestFrom(
  server: Pick<TestServer, 'url' | 'keys'>,
  from: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<AuthResponse> {
  const url = new URL(`${server.url}${path}`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        localAddress: from,
        headers: {
          apikey: server.keys.anonKey,
          authorization: `Bearer ${server.keys.anonKey}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-supabase-api-version': '2024-01-01',
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (typeof value === 'string') headers.set(name, value);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers,
            body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
          });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
