import { supabase } from '../../../lib/supabase.ts';

/**
 * The project address, the anon key and the caller's access token of the shared client, for
 * the two requests supabase-js cannot make as the app needs them: an upload that reports its
 * progress, and a function's answer read as a file (functions-js reads `application/zip` as
 * text). supabase-js keeps the address and key on the client.
 */
export async function apiEndpoint(): Promise<{ url: string; headers: Record<string, string> }> {
  const client = supabase() as unknown as { supabaseUrl: string; supabaseKey: string };
  const { data } = await supabase().auth.getSession();
  return {
    url: String(client.supabaseUrl).replace(/\/+$/, ''),
    headers: {
      apikey: client.supabaseKey,
      Authorization: `Bearer ${data.session?.access_token ?? client.supabaseKey}`,
    },
  };
}
