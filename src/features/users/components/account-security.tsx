import { memo, useId, useState, type FormEvent } from 'react';
import { EMPTY_NEW_PASSWORD, NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { PasswordInput } from '../../../components/password-input.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { passwordProblem, type NewPasswordField } from '../../../lib/passwords.ts';
import {
  useChangeEmail,
  useChangePassword,
  useSignOutOtherSessions,
  WRONG_CURRENT_PASSWORD,
} from '../api/account.ts';

export const PASSWORD_CHANGED =
  'Your password has been changed. Your other sessions have been signed out.';
export const OTHER_SESSIONS_SIGNED_OUT = 'You have been signed out of every other session.';

/** Current password, new password twice (the invitation page's rules). */
function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [newPassword, setNewPassword] = useState(EMPTY_NEW_PASSWORD);
  const { password, confirmation } = newPassword;
  const { formRef, problems, report, clear } = useFormProblems<NewPasswordField | 'current'>();
  const change = useChangePassword();
  const toast = useToast();
  const errorId = useId();
  const refusal = change.isError ? errorMessage(change.error, 'Failed to change password') : null;
  // The server's refusal: above the form; a wrong current password is that field's problem.
  const error = refusal === WRONG_CURRENT_PASSWORD ? null : refusal;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (report(passwordProblem(password, confirmation))) return;
    change.mutate(
      { currentPassword: current, newPassword: password },
      {
        onError: (failure) => {
          if (failure.message === WRONG_CURRENT_PASSWORD) {
            report({ current: WRONG_CURRENT_PASSWORD });
          }
        },
        onSuccess: () => {
          setCurrent('');
          setNewPassword(EMPTY_NEW_PASSWORD);
          toast(PASSWORD_CHANGED);
        },
      },
    );
  };

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      aria-label="Change password"
      aria-describedby={error ? errorId : undefined}
      className="space-y-3"
    >
      <h3 className="text-sm font-semibold text-gray-900">Change password</h3>
      <div id={errorId}>
        <FormError>{error}</FormError>
      </div>
      <FormField label="Current Password" error={problems?.current}>
        {(field) => (
          <PasswordInput
            {...field}
            value={current}
            onChange={(event) => {
              setCurrent(event.target.value);
              clear('current');
            }}
            autoComplete="current-password"
            required
          />
        )}
      </FormField>
      <NewPasswordFields
        value={newPassword}
        onChange={(next) => {
          setNewPassword(next);
          clear('password', 'confirmation');
        }}
        confirmationLabel="Confirm New Password"
        problems={problems}
      />
      <Button
        type="submit"
        variant="secondary"
        disabled={!current || !password || !confirmation}
        busy={change.isPending}
        busyLabel="Changing..."
      >
        Change Password
      </Button>
    </form>
  );
}

/** A new address, confirmed by links sent to it and to the current one. */
function ChangeEmailForm({ email }: { email: string }) {
  const [next, setNext] = useState('');
  const change = useChangeEmail();
  const errorId = useId();
  const error = change.isError ? errorMessage(change.error, 'Failed to change email') : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(next);
  };

  return (
    <form
      onSubmit={onSubmit}
      aria-label="Change email"
      aria-describedby={error ? errorId : undefined}
      className="space-y-3"
    >
      <h3 className="text-sm font-semibold text-gray-900">Change email</h3>
      <div id={errorId}>
        <FormError>{error}</FormError>
      </div>
      {change.isSuccess ? (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-800">
          Check {change.variables.trim()} and {email} for a link to confirm the change. Until then
          you sign in with {email}.
        </p>
      ) : (
        <>
          <FormField label="New email address">
            {(field) => (
              <Input
                {...field}
                type="email"
                value={next}
                onChange={(event) => setNext(event.target.value)}
                autoComplete="email"
                required
              />
            )}
          </FormField>
          <Button
            type="submit"
            variant="secondary"
            disabled={!next.trim()}
            busy={change.isPending}
            busyLabel="Sending..."
          >
            Change Email
          </Button>
        </>
      )}
    </form>
  );
}

/** Ends the account's sessions in other browsers and devices. */
function OtherSessions() {
  const signOut = useSignOutOtherSessions();
  const toast = useToast();
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold text-gray-900">Sessions</h3>
      <p className="text-sm text-gray-600">
        Signed in on a computer you no longer use, or lost a phone? Sign out everywhere but here.
      </p>
      <Button
        variant="secondary"
        busy={signOut.isPending}
        busyLabel="Signing out..."
        onClick={() =>
          signOut.mutate(undefined, { onSuccess: () => toast(OTHER_SESSIONS_SIGNED_OUT) })
        }
      >
        Sign out other sessions
      </Button>
    </div>
  );
}

/**
 * The account part of the profile dialog: password, e-mail address and sessions. Memoised:
 * typing a name above it re-renders nothing here.
 */
export const AccountSecurity = memo(function AccountSecurity({ email }: { email: string }) {
  return (
    <section aria-label="Account" className="space-y-6 border-t border-gray-200 pt-4">
      <ChangePasswordForm />
      <ChangeEmailForm email={email} />
      <OtherSessions />
    </section>
  );
});
