import { useState } from 'react';
import { useToast } from '../../../components/ui/toast.tsx';
import { useSignIn } from '../api/sign-in.ts';
import { useSignUp } from '../api/sign-up.ts';
import { authErrorMessage } from '../lib/auth-error-message.ts';

export type AuthMode = 'sign-in' | 'sign-up';

export const SIGN_UP_SUCCESS = 'Account created successfully! You can now sign in.';
/** Where new accounts confirm their address first (an installation with SMTP). */
export const SIGN_UP_CONFIRM =
  'Account created! Please check your email and confirm your account, then sign in.';

const logFailure = (error: unknown) => console.error('Authentication error', error);

/**
 * State and actions of the sign-in / sign-up form (product-spec §2, §4, §8). After a sign-up
 * the form says so and is back in sign-in mode with the e-mail kept and the password field
 * emptied: the new member signs in with what they just chose (`afterSignUp` moves the focus
 * there).
 */
export function useAuthForm({ afterSignUp }: { afterSignUp: () => void }) {
  const toast = useToast();
  const signIn = useSignIn();
  const signUp = useSignUp();
  const [mode, setMode] = useState<AuthMode>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const current = mode === 'sign-in' ? signIn : signUp;

  const toggleMode = () => {
    setMode((previous) => (previous === 'sign-in' ? 'sign-up' : 'sign-in'));
    signIn.reset();
    signUp.reset();
  };

  const submit = () => {
    const credentials = { email, password };
    if (mode === 'sign-in') {
      signIn.mutate(credentials, { onError: logFailure });
      return;
    }
    signUp.mutate(credentials, {
      onError: logFailure,
      onSuccess: ({ confirmationSent }) => {
        setMode('sign-in');
        setPassword('');
        afterSignUp();
        toast(confirmationSent ? SIGN_UP_CONFIRM : SIGN_UP_SUCCESS);
      },
    });
  };

  return {
    mode,
    email,
    setEmail,
    password,
    setPassword,
    submitting: current.isPending,
    error: current.error ? authErrorMessage(current.error) : null,
    toggleMode,
    submit,
  };
}
