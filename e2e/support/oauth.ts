import type { Page, Response } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import WebSocket from 'ws';
import { deriveKeys } from '../../server/http/keys.ts';
import type { Database } from '../../src/lib/database.types.ts';
import { apiClient, serverConfig, uniqueEmail } from './api.ts';

/** One call to the mock provider's token endpoint. */
export interface TokenRequest {
  grantType: string;
  form: Record<string, unknown>;
}

/**
 * A local OAuth 2 authorisation server (oauth2-mock-server) standing in for a provider: the
 * browser really goes to its /authorize, which sends it back to the app with a code, and the
 * `oauth` function really calls its /token. It records every token request and every refresh
 * token it issued, and can be told to refuse refreshes or answer an authorisation with an
 * error.
 */
export class MockAuthorizationServer {
  readonly server = new OAuth2Server();
  readonly tokenRequests: TokenRequest[] = [];
  readonly issuedRefreshTokens: string[] = [];
  failRefresh = false;

  get url(): string {
    return this.server.issuer.url!.replace(/\/$/, '');
  }

  async start(): Promise<void> {
    await this.server.issuer.keys.generate('RS256');
    await this.server.start(0, '127.0.0.1');
    this.server.service.on('beforeResponse', (response, request) => {
      const form = (request as unknown as { body: Record<string, unknown> }).body;
      this.tokenRequests.push({ grantType: String(form.grant_type), form });
      if (this.failRefresh && form.grant_type === 'refresh_token') {
        response.statusCode = 400;
        response.body = { error: 'invalid_grant' };
        return;
      }
      const refresh = (response.body as { refresh_token?: unknown }).refresh_token;
      if (typeof refresh === 'string') this.issuedRefreshTokens.push(refresh);
    });
  }

  /** The next authorisation answers `error` instead of a code. */
  answerNextAuthorizationWith(error: string): void {
    this.server.service.once('beforeAuthorizeRedirect', ({ url }) => {
      url.searchParams.delete('code');
      url.searchParams.set('error', error);
    });
  }

  /** The next authorisation comes back without a code. */
  dropNextCode(): void {
    this.server.service.once('beforeAuthorizeRedirect', ({ url }) => {
      url.searchParams.delete('code');
    });
  }

  /** The next authorisation comes back with another state than the one sent. */
  tamperNextState(): void {
    this.server.service.once('beforeAuthorizeRedirect', ({ url }) => {
      url.searchParams.set('state', 'tampered-state-value');
    });
  }

  grants(grantType: string): TokenRequest[] {
    return this.tokenRequests.filter((request) => request.grantType === grantType);
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}

/** A service-role client for the e2e server (key derived from its DATA_DIR): test set-up only. */
export async function serviceClient(baseURL: string) {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  const secret = (await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
  const { supabaseUrl } = await serverConfig(baseURL);
  return createClient<Database>(supabaseUrl, deriveKeys(secret).serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export interface SignedInMasterAdmin {
  userId: string;
  organizationId: string;
  email: string;
  password: string;
}

/**
 * Signs `email` in for `page`: a session of its own (so the page's refresh token is nobody
 * else's) is put where supabase-js keeps it, before the app loads.
 */
export async function signIn(
  page: Page,
  baseURL: string,
  email: string,
  password: string,
): Promise<void> {
  const { data, error } = await (
    await apiClient(baseURL)
  ).auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error('sign-in returned no session');
  const { supabaseUrl } = await serverConfig(baseURL);
  const storageKey = `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
  await page.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key!)) window.localStorage.setItem(key!, value!);
    },
    [storageKey, JSON.stringify(data.session)],
  );
}

/** A new organisation whose master admin is signed in in `page`. */
export async function signInNewMasterAdmin(
  page: Page,
  baseURL: string,
): Promise<SignedInMasterAdmin> {
  const api = await apiClient(baseURL);
  const email = uniqueEmail('oauth');
  const password = 'correct horse battery staple';
  const { data, error } = await api.auth.signUp({ email, password });
  if (error || !data.user) throw error ?? new Error('sign-up returned no user');
  const created = await api.rpc('create_organization', { name: `Grace Church ${email}` });
  if (created.error) throw new Error(created.error.message);
  await signIn(page, baseURL, email, password);
  return {
    userId: data.user.id,
    organizationId: (created.data as unknown as { id: string }).id,
    email,
    password,
  };
}

/**
 * Keeps (in `into`) the body of every response the page receives from the API, to check
 * afterwards that none of them carried a secret.
 */
export function recordApiResponses(page: Page, baseURL: string, into: string[]): void {
  page.on('response', (response: Response) => {
    if (!response.url().startsWith(baseURL)) return;
    const { pathname } = new URL(response.url());
    if (!/^\/(rest|functions|auth|storage)\/v1\//.test(pathname)) return;
    void response.text().then(
      (text) => into.push(`${pathname}\n${text}`),
      () => undefined, // a body that is gone because the page navigated away
    );
  });
}
