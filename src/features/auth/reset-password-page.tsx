import { KeyRound, XCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { EMPTY_NEW_PASSWORD, NewPasswordFields } from '../../components/new-password-fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { paths } from '../../config/paths.ts';
import { errorMessage } from '../../lib/errors.ts';
import { passwordProblem } from '../../lib/passwords.ts';
import { ResetLinkInvalidError, useResetPassword } from './api/password-reset.ts';

export const RESET_LINK_INVALID =
  'This password reset link is invalid or has expired. Ask for a new one from the sign-in page.';
export const PASSWORD_RESET_DONE = 'Your password has been changed.';

function InvalidResetLink({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-8 text-center shadow-sm">
      <XCircle className="mx-auto h-12 w-12 text-destructive-500" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900">Invalid Link</h1>
      <p role="alert" className="mt-2 text-sm text-gray-600">
        {message}
      </p>
      <Button className="mt-6" onClick={() => void navigate(paths.dashboard)}>
        Go to Login
      </Button>
    </section>
  );
}

/**
 * The page a password reset e-mail opens (`/reset-password?token_hash=…&type=recovery`): two
 * password fields with the invitation page's rules. The link is used only when the form is
 * sent, so a mail scanner that opens it uses nothing up. Afterwards the person is signed in.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const tokenHash = params.get('token_hash')?.trim() ?? '';
  const navigate = useNavigate();
  const toast = useToast();
  const reset = useResetPassword();
  const [newPassword, setNewPassword] = useState(EMPTY_NEW_PASSWORD);
  const { password, confirmation } = newPassword;
  const [problem, setProblem] = useState<string | null>(null);
  const errorId = useId();

  if (!tokenHash || params.get('type') !== 'recovery') {
    return (
      <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
        <InvalidResetLink message="Invalid password reset link" />
      </main>
    );
  }
  if (reset.error instanceof ResetLinkInvalidError) {
    return (
      <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
        <InvalidResetLink message={RESET_LINK_INVALID} />
      </main>
    );
  }

  const error =
    problem ?? (reset.isError ? errorMessage(reset.error, 'Failed to set the password') : null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = passwordProblem(password, confirmation);
    setProblem(found);
    if (found) return;
    reset.mutate(
      { tokenHash, password },
      {
        onSuccess: () => {
          toast(PASSWORD_RESET_DONE);
          void navigate(paths.dashboard, { replace: true });
        },
      },
    );
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="text-center">
          <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-primary-100 text-primary-700">
            <KeyRound className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-gray-900">Set a new password</h1>
          <p className="mt-2 text-sm text-gray-600">
            Choose the password you will sign in with from now on.
          </p>
        </div>
        <form
          onSubmit={onSubmit}
          aria-describedby={error ? errorId : undefined}
          className="mt-6 space-y-4"
        >
          <div id={errorId}>
            <FormError>{error}</FormError>
          </div>
          <NewPasswordFields value={newPassword} onChange={setNewPassword} />
          <Button
            type="submit"
            className="w-full"
            disabled={!password || !confirmation}
            busy={reset.isPending}
            busyLabel="Saving..."
          >
            Set New Password
          </Button>
        </form>
      </section>
    </main>
  );
}
