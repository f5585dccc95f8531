import { FileText } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { PasswordInput } from '../../../components/password-input.tsx';
import { AuthLayout } from '../../../components/ui/auth-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { useSignUpOpen } from '../api/sign-up-settings.ts';
import { useAuthForm } from '../hooks/use-auth-form.ts';
import { ForgotPasswordForm } from './forgot-password-form.tsx';

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
  const formRef = useRef<HTMLFormElement>(null);
  const form = useAuthForm({
    afterSignUp: () =>
      formRef.current?.querySelector<HTMLInputElement>('input[name="password"]')?.focus(),
  });
  const signUpOpen = useSignUpOpen().data;
  const errorId = useId();
  const [forgotten, setForgotten] = useState(false);
  const text = texts[form.mode];

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.submit();
  };

  if (forgotten) {
    return <ForgotPasswordForm initialEmail={form.email} onBack={() => setForgotten(false)} />;
  }

  return (
    <AuthLayout icon={FileText} title={text.heading} description={text.subheading}>
      <form
        ref={formRef}
        onSubmit={onSubmit}
        aria-describedby={form.error ? errorId : undefined}
        className="space-y-5"
      >
        <div id={errorId}>
          <FormError>{form.error}</FormError>
        </div>
        <FormField label="Email address">
          {(field) => (
            <Input
              {...field}
              name="email"
              type="email"
              required
              autoComplete="email"
              value={form.email}
              onChange={(event) => form.setEmail(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Password">
          {(field) => (
            <PasswordInput
              {...field}
              name="password"
              required
              autoComplete={form.mode === 'sign-in' ? 'current-password' : 'new-password'}
              value={form.password}
              onChange={(event) => form.setPassword(event.target.value)}
            />
          )}
        </FormField>
        {form.mode === 'sign-in' && (
          <p className="-mt-2 text-right text-sm">
            <Button variant="link" onClick={() => setForgotten(true)}>
              Forgot your password?
            </Button>
          </p>
        )}
        <Button type="submit" busy={form.submitting} busyLabel={text.busy} className="w-full">
          {text.submit}
        </Button>
        {signUpOpen === true && (
          <p className="text-center text-sm text-gray-600">
            {text.togglePrompt}{' '}
            <Button variant="link" onClick={form.toggleMode}>
              {text.toggle}
            </Button>
          </p>
        )}
        {signUpOpen === false && (
          <p className="text-center text-sm text-gray-600">{INVITATION_ONLY}</p>
        )}
      </form>
    </AuthLayout>
  );
}
