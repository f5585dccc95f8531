import { supabase, type AppSupabaseClient } from '../../../lib/supabase.ts';

/**
 * The address and key of the project the shared client talks to. supabase-js keeps them
 * protected, and it has no method for GoTrue's settings; these two fields are what every
 * request of the client is built from.
 */
function projectOf(client: AppSupabaseClient): { url: string; key: string } {
  const { supabaseUrl, supabaseKey } = client as unknown as {
    supabaseUrl: string;
    supabaseKey: string;
  };
  return { url: String(supabaseUrl).replace(/\/+$/, ''), key: supabaseKey };
}

/**
 * Whether anyone may create an account here: GoTrue's `GET /auth/v1/settings` (the embedded
 * backend and hosted Supabase alike) says `disable_signup` when an installation admits only
 * invited people. Open when it cannot be asked: the server still decides every sign-up.
 */
export async function isSignUpOpen(): Promise<boolean> {
  const { url, key } = projectOf(supabase());
  try {
    const response = await fetch(`${url}/auth/v1/settings`, {
      headers: { apikey: key, Accept: 'application/json' },
    });
    if (!response.ok) return true;
    const settings = (await response.json()) as { disable_signup?: unknown } | null;
    return settings?.disable_signup !== true;
  } catch {
    return true;
  }
}
