import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../../src/lib/database.types.ts';

/** The running server's address and public key, as the SPA reads them. */
export async function serverConfig(
  baseURL: string,
): Promise<{ supabaseUrl: string; supabaseAnonKey: string }> {
  const response = await fetch(`${baseURL}/config.json`);
  return (await response.json()) as { supabaseUrl: string; supabaseAnonKey: string };
}

/** A supabase-js client from Node, to check through the API what the UI did. */
export async function apiClient(baseURL: string) {
  const { supabaseUrl, supabaseAnonKey } = await serverConfig(baseURL);
  return createClient<Database>(supabaseUrl, supabaseAnonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

let counter = 0;
/**
 * An address no other test uses: the time, this worker process and a count, since two workers
 * sign people up on the shared server in the same millisecond.
 */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid.toString(36)}-${counter}@example.test`;
}
