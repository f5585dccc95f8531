import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types.ts';
import { loadSupabaseSettings } from './supabase-config.ts';

export type AppSupabaseClient = SupabaseClient<Database>;

let client: AppSupabaseClient | null = null;

/** Creates the one shared client. Called once at boot, before the app renders. */
export async function initSupabase(): Promise<AppSupabaseClient> {
  if (client) return client;
  const settings = await loadSupabaseSettings();
  client = createClient<Database>(settings.supabaseUrl, settings.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
  });
  return client;
}

/** The shared client; the app renders only after `initSupabase` resolved. */
export function supabase(): AppSupabaseClient {
  if (!client) throw new Error('initSupabase() has not completed');
  return client;
}

/** For tests: use this client instead of one built from the configuration. */
export function setSupabaseClient(next: AppSupabaseClient | null): void {
  client = next;
}
