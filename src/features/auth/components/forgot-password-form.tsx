import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useRequestPasswordReset } from '../api/password-reset.ts';

export const RESET_LINK_SENT =
  'If an account exists for this address, we have sent it a link to set a new password. The link works once, for one hour.';

/**
 * "Forgot your password?": asks for the address and has a reset link e-mailed. The answer is
 * the same whether or not the address has an account.
 */
export function ForgotPasswordForm({
  initialEmail,
  onBack,
}: {
  initialEmail: string;
  onBack: () => void;
}) {
  const [email, setEmail] = useState(initialEmail);
  const request = useRequestPasswordReset();
  const errorId = useId();
  const error = request.isError ? errorMessage(request.error, 'An error occurred') : null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    request.mutate(email, { onError: (failure) => console.error('Password reset', failure) });
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      <div className="w-full max-w-md">
        <div className="text-center">
          <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-primary-100 text-primary-700">
            <KeyRound className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-gray-900">Reset your password</h1>
          <p className="mt-1 text-sm text-gray-600">
            Enter your email address and we will send you a link to set a new password.
          </p>
        </div>
        <form
          onSubmit={onSubmit}
          aria-describedby={error ? errorId : undefined}
          className="mt-8 space-y-5 rounded-lg border border-gray-200 bg-white p-6 shadow-sm"
        >
          <div id={errorId}>
            <FormError>{error}</FormError>
          </div>
          {request.isSuccess ? (
            <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-800">
              {RESET_LINK_SENT}
            </p>
          ) : (
            <>
              <FormField label="Email address">
                {(field) => (
                  <Input
                    {...field}
                    name="email"
                    type="email"
                    required
                    autoComplete="email"
                    value={email}
                    onChange={(event) => setEmail(event.target.value)}
                  />
                )}
              </FormField>
              <Button
                type="submit"
                busy={request.isPending}
                busyLabel="Sending..."
                className="w-full"
              >
                Send reset link
              </Button>
            </>
          )}
          <p className="text-center text-sm text-gray-600">
            <Button variant="link" onClick={onBack}>
              Back to sign in
            </Button>
          </p>
        </form>
      </div>
    </main>
  );
}
