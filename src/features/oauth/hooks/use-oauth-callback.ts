import { useQuery, type QueryClient } from '@tanstack/react-query';
import { completeAuthorization } from '../api/complete-authorization.ts';
import { OAuthFunctionError } from '../api/oauth-function.ts';
import { oauthKeys } from '../api/query-keys.ts';
import { forgetAuthorization, matchesRememberedAuthorization } from '../lib/oauth-storage.ts';

export type CallbackState =
  | { status: 'loading' }
  | { status: 'success' }
  | { status: 'error'; message: string; detail?: string };

export interface CallbackParams {
  providerId: string | undefined;
  code: string | null;
  state: string | null;
  error: string | null;
}

/** What the provider's answer gives, checked before anything is sent (spec §4, §8). */
function precheck({ providerId, code, state, error }: CallbackParams): CallbackState | null {
  if (error) return { status: 'error', message: `OAuth error: ${error}` };
  if (!providerId || !code || !state) {
    return { status: 'error', message: 'Missing required OAuth parameters' };
  }
  if (!matchesRememberedAuthorization(state, providerId)) {
    return { status: 'error', message: 'Invalid OAuth state' };
  }
  return null;
}

/**
 * The whole answer: checked here against the state this browser stored, then by the function
 * against its own copy, and the code exchanged. Never throws: a failure is an outcome to show.
 */
async function outcomeOf(params: CallbackParams, client: QueryClient): Promise<CallbackState> {
  const early = precheck(params);
  if (early) return early;
  try {
    await completeAuthorization(params.providerId!, params.code!, params.state!);
    forgetAuthorization();
    void client.invalidateQueries({ queryKey: oauthKeys.connections });
    return { status: 'success' };
  } catch (error) {
    if (!(error instanceof OAuthFunctionError)) {
      console.error('OAuth callback failed', error);
      return { status: 'error', message: 'OAuth callback failed' };
    }
    forgetAuthorization();
    if (error.message === 'Invalid OAuth state') return { status: 'error', message: error.message };
    return {
      status: 'error',
      message: 'Failed to complete OAuth connection',
      detail: error.message,
    };
  }
}

/**
 * The callback page's flow. A provider's answer can be spent once: as a query keyed by the
 * answer it runs once however often the page renders or mounts, and its outcome stays (it is
 * never stale, never collected). `enabled` waits for the session, whose token the function
 * needs.
 */
export function useOAuthCallback(params: CallbackParams, enabled: boolean): CallbackState {
  const { providerId, code, state, error } = params;
  const answer = JSON.stringify([code, state, error]);
  const outcome = useQuery({
    queryKey: oauthKeys.callback(providerId ?? '', answer),
    queryFn: ({ client }) => outcomeOf({ providerId, code, state, error }, client),
    enabled,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  return outcome.data ?? { status: 'loading' };
}
