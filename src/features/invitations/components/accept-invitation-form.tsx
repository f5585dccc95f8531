import type { UseMutationResult } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { EMPTY_NEW_PASSWORD, NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { AuthLayout } from '../../../components/ui/auth-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { useFormProblems } from '../../../components/ui/form-field.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { ROLE_LABELS, type Role } from '../../../lib/roles.ts';
import type { InvitationDetails } from '../api/get-invitation.ts';
import type { AcceptRequest } from '../hooks/use-accept-invitation.ts';
import { passwordProblem, type NewPasswordField } from '../../../lib/passwords.ts';

export interface AcceptInvitationFormProps {
  invitation: InvitationDetails;
  /** Accepting (`useAcceptInvitation`), held by the page so it outlives a reload of the lookup. */
  accept: UseMutationResult<void, Error, AcceptRequest>;
}

/** Join {organization}: who invited, the invitation's details, and the two passwords (spec §2). */
export function AcceptInvitationForm({ invitation, accept }: AcceptInvitationFormProps) {
  const [newPassword, setNewPassword] = useState(EMPTY_NEW_PASSWORD);
  const { password, confirmation } = newPassword;
  const { formRef, problems, report, clear } = useFormProblems<NewPasswordField>();
  const errorId = useId();
  const organization = invitation.organization_name ?? 'your organization';
  const inviter = invitation.invited_by_name?.trim() || invitation.invited_by_email || null;
  const error = accept.isError ? errorMessage(accept.error, 'Failed to accept invitation') : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!report(passwordProblem(password, confirmation))) accept.mutate({ invitation, password });
  };

  return (
    <AuthLayout
      icon={Mail}
      title={`Join ${organization}`}
      description={
        inviter
          ? `${inviter} has invited you to join ${organization}.`
          : `You have been invited to join ${organization}.`
      }
    >
      <dl className="space-y-2 rounded-md bg-gray-50 p-4 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="shrink-0 text-gray-500">Email</dt>
          {/* Wrapped, not cut off: on a phone the whole address must still be readable. */}
          <dd className="min-w-0 text-right font-medium wrap-anywhere text-gray-900">
            {invitation.email}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="shrink-0 text-gray-500">Role</dt>
          <dd className="font-medium text-gray-900">
            {ROLE_LABELS[(invitation.role ?? 'user') as Role] ?? ROLE_LABELS.user}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="shrink-0 text-gray-500">Organization</dt>
          <dd className="min-w-0 text-right font-medium wrap-anywhere text-gray-900">
            {organization}
          </dd>
        </div>
      </dl>

      <form
        ref={formRef}
        onSubmit={onSubmit}
        aria-describedby={error ? errorId : undefined}
        className="mt-6 space-y-4"
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
          passwordLabel="Create Password"
          problems={problems}
        />
        <Button
          type="submit"
          className="w-full"
          disabled={!password || !confirmation}
          busy={accept.isPending}
          busyLabel="Creating account..."
        >
          Accept Invitation & Create Account
        </Button>
        <p className="text-center text-xs text-gray-500">
          Already have an account with this email? Enter its password in both fields to join.
        </p>
      </form>
    </AuthLayout>
  );
}
