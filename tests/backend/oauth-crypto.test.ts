import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assertTokenKey,
  decryptToken,
  encryptToken,
  fromBase64Url,
  importTokenKey,
  randomState,
  sha256Hex,
  TokenCipherError,
  toBase64Url,
} from '../../supabase/functions/oauth/crypto.ts';
import {
  needsRefresh,
  REFRESH_THRESHOLD_MS,
} from '../../supabase/functions/_shared/oauth-refresh-policy.ts';

const newKey = () => randomBytes(32).toString('base64url');

/** Flips one bit of the base64url part `index` of a stored token. */
function flipBit(stored: string, index: number): string {
  const parts = stored.split('.');
  const bytes = fromBase64Url(parts[index]!);
  bytes[bytes.length - 1]! ^= 0x01;
  parts[index] = toBase64Url(bytes);
  return parts.join('.');
}

describe('token encryption at rest (AES-256-GCM)', () => {
  it('round-trips a token and never stores it in the clear', async () => {
    const key = await importTokenKey(newKey());
    const token = 'ya29.a0AfH6SMB-secret-access-token';
    const stored = await encryptToken(key, token, 'conn-1:access_token');
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain(token);
    expect(await decryptToken(key, stored, 'conn-1:access_token')).toBe(token);
  });

  it('uses a fresh nonce each time, so equal tokens give different ciphertexts', async () => {
    const key = await importTokenKey(newKey());
    const a = await encryptToken(key, 'same', 'ctx');
    const b = await encryptToken(key, 'same', 'ctx');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('detects a changed ciphertext, a changed nonce, another row or column, and another key', async () => {
    const key = await importTokenKey(newKey());
    const stored = await encryptToken(key, 'refresh-token-value', 'conn-1:refresh_token');
    const rejects = (value: string, context = 'conn-1:refresh_token', withKey = key) =>
      expect(decryptToken(withKey, value, context)).rejects.toBeInstanceOf(TokenCipherError);

    await rejects(flipBit(stored, 2));
    await rejects(flipBit(stored, 1));
    await rejects(stored, 'conn-2:refresh_token');
    await rejects(stored, 'conn-1:access_token');
    await rejects(stored, 'conn-1:refresh_token', await importTokenKey(newKey()));
    await rejects('plain-text-token');
    await rejects(`v2.${stored.slice(3)}`);
    await rejects('v1.AAAA.AAAA');
    await rejects('v1.not*base64.AAAA');
  });

  it('accepts only a 256-bit base64url key', async () => {
    expect(() => assertTokenKey(undefined)).toThrow('OAUTH_TOKEN_KEY is not set');
    expect(() => assertTokenKey('')).toThrow('OAUTH_TOKEN_KEY is not set');
    expect(() => assertTokenKey(randomBytes(16).toString('base64url'))).toThrow(
      'OAUTH_TOKEN_KEY must be 256 bits (32 bytes)',
    );
    expect(() => assertTokenKey(randomBytes(32).toString('base64'))).toThrow(
      /must be base64url|must be 256 bits/,
    );
    expect(() => assertTokenKey('not a key!')).toThrow('OAUTH_TOKEN_KEY must be base64url');
    await expect(importTokenKey(newKey())).resolves.toBeDefined();
  });
});

describe('OAuth state', () => {
  it('is 256 random bits, URL-safe, different every time', () => {
    const states = new Set(Array.from({ length: 200 }, () => randomState()));
    expect(states.size).toBe(200);
    for (const state of states) {
      expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(fromBase64Url(state)).toHaveLength(32);
    }
  });

  it('is stored as its SHA-256 in hex', async () => {
    const state = randomState();
    expect(await sha256Hex(state)).toBe(createHash('sha256').update(state).digest('hex'));
    expect(await sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('refresh threshold (5 minutes before expiry)', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('refreshes under 5 minutes and not at or beyond', () => {
    expect(REFRESH_THRESHOLD_MS).toBe(300_000);
    expect(needsRefresh(at(5 * 60_000 - 1000), now)).toBe(true);
    expect(needsRefresh(at(5 * 60_000), now)).toBe(false);
    expect(needsRefresh(at(5 * 60_000 + 1000), now)).toBe(false);
    expect(needsRefresh(at(60 * 60_000), now)).toBe(false);
  });

  it('refreshes a token that already expired, never one without an expiry', () => {
    expect(needsRefresh(at(-60_000), now)).toBe(true);
    expect(needsRefresh(null, now)).toBe(false);
  });
});
