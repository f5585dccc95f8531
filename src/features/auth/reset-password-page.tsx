import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { InvalidLink } from '../../components/invalid-link.tsx';
import { EMPTY_NEW_PASSWORD, NewPasswordFields } from '../../components/new-password-fields.tsx';
import { AuthLayout } from '../../components/ui/auth-layout.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { useFormProblems } from '../../components/ui/form-field.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { paths } from '../../config/paths.ts';
import { errorMessage } from '../../lib/errors.ts';
import { passwordProblem, type NewPasswordField } from '../../lib/passwords.ts';
import { ResetLinkInvalidError, useResetPassword } from './api/password-reset.ts';

export const RESET_LINK_INVALID =
  'This password reset link is invalid or has expired. Ask for a new one from the sign-in page.';
export const PASSWORD_RESET_DONE = 'Your password has been changed.';

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
  const { formRef, problems, report, clear } = useFormProblems<NewPasswordField>();
  const errorId = useId();

  if (!tokenHash || params.get('type') !== 'recovery') {
    return <InvalidLink message="Invalid password reset link" />;
  }
  if (reset.error instanceof ResetLinkInvalidError) {
    return <InvalidLink message={RESET_LINK_INVALID} />;
  }

  const error = reset.isError ? errorMessage(reset.error, 'Failed to set the password') : null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (report(passwordProblem(password, confirmation))) return;
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
    <AuthLayout
      icon={KeyRound}
      title="Set a new password"
      description="Choose the password you will sign in with from now on."
    >
      <form
        ref={formRef}
        onSubmit={onSubmit}
        aria-describedby={error ? errorId : undefined}
        className="space-y-4"
      >
        <div id={errorId}>
          <FormError>{error}</FormError>
        </div>
        <NewPasswordFields
          value={newPassword}
          onChange={(next) => {
            setNewPassword(next);
            clear('password', 'confirmation');
          }}
          problems={problems}
        />
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
    </AuthLayout>
  );
}
