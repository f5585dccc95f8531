import { useEffect, useState } from 'react';
import { completeAuthorization } from '../api/authorization.ts';
import { OAuthFunctionError } from '../api/oauth-function.ts';
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

// A state can be spent once. React may run an effect twice in development, and the page may
// re-render: every run for the same state shares one attempt.
const attempts = new Map<string, Promise<CallbackState>>();

async function complete(providerId: string, code: string, state: string): Promise<CallbackState> {
  try {
    await completeAuthorization(providerId, code, state);
    forgetAuthorization();
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
 * The callback page's flow: check the provider's answer against the state this browser
 * stored, then let the function check it against its own copy and exchange the code.
 * `enabled` waits for the session, whose token the function needs.
 */
export function useOAuthCallback(params: CallbackParams, enabled: boolean): CallbackState {
  const [result, setResult] = useState<CallbackState>({ status: 'loading' });
  const { providerId, code, state, error } = params;

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    const early = precheck({ providerId, code, state, error });
    const attempt = early
      ? Promise.resolve(early)
      : (attempts.get(state!) ??
        attempts.set(state!, complete(providerId!, code!, state!)).get(state!)!);
    void attempt.then((next) => {
      if (current) setResult(next);
    });
    return () => {
      current = false;
    };
  }, [enabled, providerId, code, state, error]);

  return result;
}
