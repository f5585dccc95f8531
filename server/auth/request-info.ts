import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { ClientInfo } from './sessions.ts';

/**
 * The address of the TCP peer. Headers such as `X-Forwarded-For` are not trusted: the embedded
 * server is reached directly, and a client could write anything there. `null` when the request
 * did not come through the Node server (e.g. `app.request()` in-process).
 */
export function clientAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/** What a new or refreshed session records about its client. */
export function clientInfo(c: Context): ClientInfo {
  return { userAgent: c.req.header('user-agent') ?? null, address: clientAddress(c) };
}

/** GoTrue's response headers naming the user and session a token response is for. */
export function setSessionHeaders(c: Context, userId: string, sessionId: string): void {
  c.header('sb-auth-user-id', userId);
  c.header('sb-auth-session-id', sessionId);
}
