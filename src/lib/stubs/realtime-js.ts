/**
 * Stands in for `@supabase/realtime-js` in the browser build (see vite.config.ts). Steward never
 * subscribes to realtime channels, and supabase-js opens no socket until something subscribes,
 * so the real client (about a fifth of supabase-js) would be downloaded for nothing. supabase-js
 * only constructs the client and passes it the access token; anything else fails loudly.
 */
export class RealtimeClient {
  constructor(_endpoint: string, _options?: unknown) {}

  setAuth(_token?: string | null): Promise<void> {
    return Promise.resolve();
  }

  getChannels(): never[] {
    return [];
  }

  channel(): never {
    throw new Error('Realtime is not part of Steward: the client is built without it.');
  }

  removeChannel(): Promise<'ok'> {
    return Promise.resolve('ok');
  }

  removeAllChannels(): Promise<'ok'[]> {
    return Promise.resolve([]);
  }
}
