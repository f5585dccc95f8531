import { decryptToken, encryptToken, importTokenKey } from './crypto.ts';
import type { TokenRow } from './store.ts';

/**
 * Encryption of a connection's tokens at rest with `OAUTH_TOKEN_KEY`. Each ciphertext is bound
 * to its connection and column, so swapping ciphertexts between rows or columns is detected.
 */
export class TokenCipher {
  private constructor(private readonly key: CryptoKey) {}

  /** Throws when the key is missing or malformed: tokens are never stored unencrypted. */
  static async fromKey(base64UrlKey: string | undefined): Promise<TokenCipher> {
    return new TokenCipher(await importTokenKey(base64UrlKey));
  }

  async seal(
    connectionId: string,
    accessToken: string,
    refreshToken: string | null,
  ): Promise<{ access: string; refresh: string | null }> {
    return {
      access: await encryptToken(this.key, accessToken, context(connectionId, 'access_token')),
      refresh:
        refreshToken === null
          ? null
          : await encryptToken(this.key, refreshToken, context(connectionId, 'refresh_token')),
    };
  }

  openAccess(connectionId: string, row: TokenRow): Promise<string> {
    return decryptToken(this.key, row.access_token, context(connectionId, 'access_token'));
  }

  async openRefresh(connectionId: string, row: TokenRow): Promise<string | null> {
    if (row.refresh_token === null) return null;
    return decryptToken(this.key, row.refresh_token, context(connectionId, 'refresh_token'));
  }
}

const context = (connectionId: string, column: string) =>
  `oauth_connection_tokens:${connectionId}:${column}`;
