import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/**
 * Which peers may say who the client is: `proxy-addr`'s compiled trust function (the one
 * Express's `trust proxy` uses) for steward.toml `[server] trusted_proxies`.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * Compiles a list of addresses and CIDR ranges (or proxy-addr's names `loopback`, `linklocal`,
 * `uniquelocal`); throws, naming the entry, when one is neither.
 */
export function compileProxyTrust(proxies: readonly string[]): ProxyTrust {
  return proxyaddr.compile([...proxies]);
}

/** What `clientAddresses()` keeps on the Hono context: one part of the API's `ApiEnv`. */
export interface ClientAddressEnv {
  Variables: { clientAddress?: ClientAddressOf };
}

/** The request's client address, found on the first call and remembered for the others. */
type ClientAddressOf = () => string | null;

/**
 * Finds each request's client address once, for every limit, lane and record keyed by address
 * (read with `clientAddress`). With no trusted proxy (the default) it is the TCP peer's, and
 * `X-Forwarded-For` is ignored: anyone can write that header. When the peer is a trusted proxy
 * (a load balancer), it is the right-most address of `X-Forwarded-For` that is not itself
 * trusted, proxy-addr's rule: entries left of it were written by the client, and would let it
 * choose its address. A forwarded entry that is no IP address (a misconfigured proxy's
 * `unknown`) is not believed either: the request then counts as the nearest trusted proxy's.
 */
export function clientAddresses(trust: ProxyTrust): MiddlewareHandler<ClientAddressEnv> {
  return (c, next) => {
    // Hono's Node adapter passes the request it answers; `app.request()` in-process has none.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    // The peer is read now, while the connection is open (Node then remembers it); the rest is
    // worked out when first asked for: a signed-in caller's read never needs it, and parsing
    // `X-Forwarded-For` on every request was measurable on the REST hot path.
    const peer = incoming?.socket?.remoteAddress;
    let found: string | null | undefined;
    c.set('clientAddress', () => (found ??= resolveClientAddress(incoming, peer, trust)));
    return next();
  };
}

function resolveClientAddress(
  incoming: IncomingMessage | undefined,
  peer: string | undefined,
  trust: ProxyTrust,
): string | null {
  if (!incoming || peer === undefined) return null;
  // The peer, then `X-Forwarded-For` from right to left, up to the first address not trusted.
  const chain = proxyaddr.all(incoming, trust);
  const client = chain[chain.length - 1]!;
  if (ipaddr.isValid(client)) return client;
  // The hop before the unbelievable entry is the last proxy trusted to have spoken.
  return chain[chain.length - 2] ?? peer;
}

/**
 * The request's client address as `clientAddresses()` found it; null when the request did not
 * come through the Node server (e.g. `app.request()` in-process).
 */
export function clientAddress(c: Context): string | null {
  const addressOf = c.get('clientAddress') as ClientAddressOf | undefined;
  if (addressOf === undefined) {
    // A route mounted without the middleware would count every client as one: fail loudly.
    throw new Error('clientAddresses() did not run for this request');
  }
  return addressOf();
}
