import { describe, expect, it } from 'vitest';
import { BackendUnreachableError, loadSupabaseSettings } from './supabase-config.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('loadSupabaseSettings', () => {
  it('prefers the build-time variables (hosted mode)', async () => {
    const settings = await loadSupabaseSettings(
      { VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'anon' },
      () => Promise.reject(new Error('must not fetch')),
    );
    expect(settings).toEqual({ supabaseUrl: 'https://abc.supabase.co', supabaseAnonKey: 'anon' });
  });

  it('reads /config.json from the embedded backend otherwise', async () => {
    const requested: string[] = [];
    const settings = await loadSupabaseSettings({}, async (input) => {
      requested.push(String(input));
      return json({ supabaseUrl: 'http://localhost:8080', supabaseAnonKey: 'key' });
    });
    expect(requested).toEqual(['/config.json']);
    expect(settings.supabaseUrl).toBe('http://localhost:8080');
  });

  it.each([
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['an error status', async () => new Response('down', { status: 502 })],
    [
      'an unusable body',
      async () => json({ supabaseUrl: 'javascript:alert(1)', supabaseAnonKey: 'k' }),
    ],
  ])('reports the backend as unreachable on %s', async (_case, fetchFn) => {
    await expect(loadSupabaseSettings({}, fetchFn as typeof fetch)).rejects.toBeInstanceOf(
      BackendUnreachableError,
    );
  });
});
