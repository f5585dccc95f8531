/**
 * The browser's half of the state check (spec §3 local storage keys, §4 OAuth flow): the state
 * and provider of the authorisation in progress, compared with what the provider sends back.
 * The server keeps its own hashed copy bound to the user; both must match.
 */
const STATE_KEY = 'oauth_state';
const PROVIDER_KEY = 'oauth_provider';

export function rememberAuthorization(state: string, providerId: string): void {
  window.localStorage.setItem(STATE_KEY, state);
  window.localStorage.setItem(PROVIDER_KEY, providerId);
}

/** True when `state` and `providerId` are the ones this browser started. */
export function matchesRememberedAuthorization(state: string, providerId: string): boolean {
  return (
    window.localStorage.getItem(STATE_KEY) === state &&
    window.localStorage.getItem(PROVIDER_KEY) === providerId
  );
}

export function forgetAuthorization(): void {
  window.localStorage.removeItem(STATE_KEY);
  window.localStorage.removeItem(PROVIDER_KEY);
}
