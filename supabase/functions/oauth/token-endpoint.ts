/**
 * Calls to a provider's token endpoint (product-spec §7): a form-encoded POST carrying the
 * client credentials, answered with `access_token`, optionally `refresh_token` and
 * `expires_in`. Runs only on the server, where the client secret is.
 */

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  accessToken: string;
  /** Absent when the provider sent none (refreshes often do not rotate it). */
  refreshToken: string | null;
  /** Seconds the access token lives; null when the provider gave no (positive) lifetime. */
  expiresIn: number | null;
}

/** The provider refused or answered something that is not a token: `reason` is for the user. */
export class TokenEndpointError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const TIMEOUT_MS = 15_000;

/** Exchanges an authorisation code (grant_type authorization_code). */
export function exchangeCode(
  tokenUrl: string,
  client: ClientCredentials,
  code: string,
  redirectUri: string,
): Promise<TokenSet> {
  return postForm(tokenUrl, {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    code,
    grant_type: 'authorization_code',
    redirect_uri: redirectUri,
  });
}

/** Exchanges a refresh token for a new access token (grant_type refresh_token). */
export function refreshAccessToken(
  tokenUrl: string,
  client: ClientCredentials,
  refreshToken: string,
): Promise<TokenSet> {
  return postForm(tokenUrl, {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
}

async function postForm(tokenUrl: string, fields: Record<string, string>): Promise<TokenSet> {
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        // GitHub answers form-encoded unless asked for JSON.
        Accept: 'application/json',
      },
      body: new URLSearchParams(fields).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new TokenEndpointError(timedOut ? 'Gateway Timeout' : 'Bad Gateway');
  }
  const text = await response.text();
  if (!response.ok) {
    throw new TokenEndpointError(response.statusText || String(response.status));
  }
  const body = parseBody(text);
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    // Some providers (GitHub) answer 200 with an `error` field instead of a token.
    const error = typeof body.error === 'string' && body.error ? body.error : 'no access token';
    throw new TokenEndpointError(error);
  }
  const refreshToken = typeof body.refresh_token === 'string' && body.refresh_token;
  const expiresIn = Number(body.expires_in);
  return {
    accessToken,
    refreshToken: refreshToken || null,
    // Mailchimp answers expires_in 0 for tokens that never expire.
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null,
  };
}

function parseBody(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
    return {};
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}
