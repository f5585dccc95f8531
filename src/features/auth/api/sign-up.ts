import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { useMutation } from '@tanstack/react-query';
import { supabase, type AppSupabaseClient } from '../../../lib/supabase.ts';
import { projectOf } from './project.ts';
import type { Credentials } from './sign-in.ts';
import { succeeded } from '../../../lib/errors.ts';

/** One sign-up client per app client, kept in memory only (see `signUpWithPassword`). */
const signUpClients = new WeakMap<AppSupabaseClient, SupabaseClient>();

function signUpClientFor(app: AppSupabaseClient): SupabaseClient {
  let client = signUpClients.get(app);
  if (!client) {
    const { url, key } = projectOf(app);
    client = createClient(url, key, {
      auth: {
        persistSession: false,
        autoRefreshToken: false,
        detectSessionInUrl: false,
        // Apart from the app's own stored session, so neither sees the other.
        storageKey: 'steward-sign-up',
      },
    });
    signUpClients.set(app, client);
  }
  return client;
}

/**
 * Creates an account, and leaves nobody signed in: after a sign-up the form goes back to
 * sign-in mode (product-spec §2, §4). Where e-mail confirmation is off (the embedded backend)
 * GoTrue's answer signs the new account straight in; that happens on a client of its own,
 * which keeps the session in memory only and ends it on the server at once, so the app's
 * session never changes.
 */
export async function signUpWithPassword({
  email,
  password,
}: Credentials): Promise<{ confirmationSent: boolean }> {
  const client = signUpClientFor(supabase());
  const { data } = await succeeded(client.auth.signUp({ email, password }));
  if (data.session) {
    // The account exists either way; a session the server could not end expires on its own
    // and is stored nowhere.
    await client.auth.signOut({ scope: 'local' });
  }
  // No session: the server asks the new member to confirm their address by a link first.
  return { confirmationSent: !data.session };
}

/** Creating an account (nothing cached changes: the new user is not signed in). */
/** The form shows a refusal in its red box (spec §8). */
export const useSignUp = () =>
  useMutation({ mutationFn: signUpWithPassword, meta: { errorShownInPlace: true } });
