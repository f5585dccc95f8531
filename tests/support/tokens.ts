import { randomUUID } from 'node:crypto';
import { signJwt } from '../../server/http/jwt.ts';
import type { TestServer } from './server.ts';
import { nodeClient } from './server.ts';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

/**
 * An access token for `userId` signed with the server's secret, shaped as GoTrue issues them.
 * For tests of REST and storage that need a signed-in caller without going through /auth/v1.
 */
export function accessTokenFor(
  server: TestServer,
  userId: string = randomUUID(),
  extra: Record<string, unknown> = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      aud: 'authenticated',
      role: 'authenticated',
      sub: userId,
      email: `${userId}@example.test`,
      iat: now,
      exp: now + 3600,
      session_id: randomUUID(),
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
      ...extra,
    },
    server.keys.jwtSecret,
  );
}

/** A supabase-js client that sends `token` as its access token. */
export function clientWithToken(server: TestServer, token: string): SupabaseClient {
  return createClient(server.url, server.keys.anonKey, {
    accessToken: async () => token,
    realtime: { transport: WebSocket as never },
  });
}

export { nodeClient };
