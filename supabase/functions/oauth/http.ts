import { corsHeaders } from '../_shared/cors.ts';

/**
 * Responses of the `oauth` function. Every failure a caller can cause or see is an
 * `OAuthError`: its message is one of the specification's texts (§8) and goes to the caller
 * as `{ "error": message }`; anything else is a bug and answers a generic 500.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The texts of product-spec §8 that the function answers with. */
export const messages = {
  notAuthenticated: 'User not authenticated',
  noOrganization: 'No organization found',
  providerNotFound: (id: string) => `Provider ${id} not found`,
  notConfigured: (id: string) => `OAuth not configured for ${id}`,
  invalidState: 'Invalid OAuth state',
  missingParameters: 'Missing required OAuth parameters',
  exchangeFailed: (statusText: string) => `Token exchange failed: ${statusText}`,
  refreshFailed: (statusText: string) => `Token refresh failed: ${statusText}`,
  cannotRefresh: 'Cannot refresh token',
  notConnected: (name: string) => `${name} is not connected`,
  needsReconnect: (name: string) => `${name} needs to be reconnected`,
  tooManyStarts: 'Too many connections started at once. Please try again in a few minutes.',
  notAnAppAddress: (site: string) =>
    `Connections can only be started from this app's own address (${site})`,
} as const;

// Browsers call a hosted edge function from the app's origin, so the function answers CORS
// itself (in local mode the embedded server's middleware sets the same headers).

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      ...corsHeaders,
      'Content-Type': 'application/json',
      // Answers carry access tokens: no cache may keep them.
      'Cache-Control': 'no-store',
    },
  });
}

export function preflight(): Response {
  return new Response(null, { status: 204, headers: corsHeaders });
}

export function errorResponse(error: OAuthError): Response {
  return json(error.status, { error: error.message });
}
