import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { projectOf } from './project.ts';
import { authKeys } from './query-keys.ts';

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

export const signUpOpenQueryOptions = () =>
  queryOptions({ queryKey: authKeys.settings(), queryFn: isSignUpOpen });

/** Whether the form offers "Sign up": `data` is undefined until the server has said. */
export const useSignUpOpen = () => useQuery(signUpOpenQueryOptions());
