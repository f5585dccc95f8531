import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

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
