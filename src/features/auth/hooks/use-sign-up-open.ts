import { useAsyncData } from '../../../lib/use-async-data.ts';
import { isSignUpOpen } from '../api/sign-up-settings.ts';

/**
 * Whether the form offers "Sign up": `undefined` until the server has said, then whether
 * sign-up is open to anyone (see `isSignUpOpen`).
 */
export function useSignUpOpen(): boolean | undefined {
  return useAsyncData(isSignUpOpen).data;
}
