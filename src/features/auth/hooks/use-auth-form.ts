import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { signInWithPassword } from '../api/sign-in.ts';
import { signUpWithPassword } from '../api/sign-up.ts';
import { authErrorMessage } from '../lib/auth-error-message.ts';

export type AuthMode = 'sign-in' | 'sign-up';

export const SIGN_UP_SUCCESS = 'Account created successfully! You can now sign in.';

/** State and actions of the sign-in / sign-up form (product-spec §2, §4, §8). */
export function useAuthForm() {
  const { alert } = useFeedback();
  const [mode, setMode] = useState<AuthMode>('sign-in');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggleMode = () => {
    setMode((current) => (current === 'sign-in' ? 'sign-up' : 'sign-in'));
    setError(null);
  };

  const submit = async (email: string, password: string) => {
    setSubmitting(true);
    setError(null);
    try {
      if (mode === 'sign-in') {
        await signInWithPassword(email, password);
      } else {
        await signUpWithPassword(email, password);
        // With e-mail confirmation off the backend has already signed the new user in and the
        // shell moves on to the app; the alert still shows there. Where confirmation is on,
        // the form stays and is back in sign-in mode, as the specification describes.
        setMode('sign-in');
        void alert(SIGN_UP_SUCCESS);
      }
    } catch (caught) {
      console.error('Authentication error', caught);
      setError(authErrorMessage(caught));
    } finally {
      setSubmitting(false);
    }
  };

  return { mode, submitting, error, toggleMode, submit };
}
