import type { AppSupabaseClient } from '../../../lib/supabase.ts';

/**
 * The address and key of the project the shared client talks to. supabase-js keeps them
 * protected, and it has no method for GoTrue's settings or for a sign-up that stays apart from
 * the app's session; these two fields are what every request of the client is built from.
 */
export function projectOf(client: AppSupabaseClient): { url: string; key: string } {
  const { supabaseUrl, supabaseKey } = client as unknown as {
    supabaseUrl: string;
    supabaseKey: string;
  };
  return { url: String(supabaseUrl).replace(/\/+$/, ''), key: supabaseKey };
}
