import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { clientAddress } from '../http/client-address.ts';
import type { ClientInfo } from './sessions.ts';

/**
 * The client as the auth limits count it: an IPv4 address (also when it arrives IPv4-mapped),
 * or the /64 network of an IPv6 address, since one subscriber usually holds a whole /64 and
 * could otherwise make up a new address for every request. In-process requests, which have no
 * peer, share one key.
 */
export function limiterAddress(c: Context): string {
  const address = clientAddress(c);
  if (address === null || !ipaddr.isValid(address)) return 'in-process';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
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
