import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types.ts';
import { loadSupabaseSettings } from './supabase-config.ts';

export type AppSupabaseClient = SupabaseClient<Database>;

let client: AppSupabaseClient | null = null;
let projectUrl: string | null = null;

/** Creates the one shared client. Called once at boot, before the app renders. */
export async function initSupabase(): Promise<AppSupabaseClient> {
  if (client) return client;
  const settings = await loadSupabaseSettings();
  projectUrl = settings.supabaseUrl.replace(/\/+$/, '');
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

/**
 * The public address of an edge function, for what is opened outside the app (a calendar
 * application subscribing to `calendar/{token}.ics`).
 */
export function functionUrl(path: string): string {
  const base =
    projectUrl ?? (client as unknown as { supabaseUrl?: string } | null)?.supabaseUrl ?? '';
  return `${base.replace(/\/+$/, '')}/functions/v1/${path}`;
}

/** For tests: use this client instead of one built from the configuration. */
export function setSupabaseClient(next: AppSupabaseClient | null): void {
  client = next;
}
