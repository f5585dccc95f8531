import { FileText } from 'lucide-react';
import { useId, type FormEvent } from 'react';
import { PasswordInput } from '../../../components/password-input.tsx';
import { useAuthForm } from '../hooks/use-auth-form.ts';
import { useSignUpOpen } from '../hooks/use-sign-up-open.ts';

/** Shown instead of the sign-up link where the installation admits only invited people. */
export const INVITATION_ONLY =
  'New accounts are by invitation only. Ask an administrator of your organization to send you an invitation link.';

const texts = {
  'sign-in': {
    heading: 'Sign in to Steward',
    subheading: 'Access your document management system',
    submit: 'Sign in',
    busy: 'Signing in...',
    togglePrompt: "Don't have an account?",
    toggle: 'Sign up',
  },
  'sign-up': {
    heading: 'Create your account',
    subheading: 'Join your organization',
    submit: 'Create account',
    busy: 'Creating account...',
    togglePrompt: 'Already have an account?',
    toggle: 'Sign in',
  },
} as const;

/**
 * The sign-in / sign-up form, shown by the shell in place of protected content while nobody is
 * signed in (product-spec §2). The URL is left alone, so after signing in the user is on the
 * page they asked for. Where sign-up is closed, the form only signs in and says how to get an
 * invitation; the toggle appears once the server has said which it is.
 */
export function AuthForm() {
  const { mode, submitting, error, toggleMode, submit } = useAuthForm();
  const signUpOpen = useSignUpOpen();
  const emailId = useId();
  const passwordId = useId();
  const errorId = useId();
  const text = texts[mode];

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void submit(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      <div className="w-full max-w-md">
        <div className="text-center">
          <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-blue-100 text-blue-700">
            <FileText className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-gray-900">{text.heading}</h1>
          <p className="mt-1 text-sm text-gray-600">{text.subheading}</p>
        </div>

        <form
          onSubmit={onSubmit}
          aria-describedby={error ? errorId : undefined}
          className="mt-8 space-y-5 rounded-lg border border-gray-200 bg-white p-6 shadow-sm"
        >
          {error && (
            <div
              id={errorId}
              role="alert"
              className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
            >
              {error}
            </div>
          )}
          <div>
            <label htmlFor={emailId} className="block text-sm font-medium text-gray-700">
              Email address
            </label>
            <input
              id={emailId}
              name="email"
              type="email"
              required
              autoComplete="email"
              className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none"
            />
          </div>
          <div>
            <label htmlFor={passwordId} className="block text-sm font-medium text-gray-700">
              Password
            </label>
            <div className="mt-1">
              <PasswordInput
                id={passwordId}
                name="password"
                required
                autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
              />
            </div>
          </div>
          <button
            type="submit"
            disabled={submitting}
            className="w-full rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {submitting ? text.busy : text.submit}
          </button>
          {signUpOpen === true && (
            <p className="text-center text-sm text-gray-600">
              {text.togglePrompt}{' '}
              <button
                type="button"
                onClick={toggleMode}
                className="font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                {text.toggle}
              </button>
            </p>
          )}
          {signUpOpen === false && (
            <p className="text-center text-sm text-gray-600">{INVITATION_ONLY}</p>
          )}
        </form>
      </div>
    </main>
  );
}
