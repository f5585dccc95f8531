import type { UseMutationResult } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { EMPTY_NEW_PASSWORD, NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { ROLE_LABELS, type Role } from '../../../lib/roles.ts';
import type { InvitationDetails } from '../api/get-invitation.ts';
import type { AcceptRequest } from '../hooks/use-accept-invitation.ts';
import { passwordProblem } from '../../../lib/passwords.ts';

export interface AcceptInvitationFormProps {
  invitation: InvitationDetails;
  /** Accepting (`useAcceptInvitation`), held by the page so it outlives a reload of the lookup. */
  accept: UseMutationResult<void, Error, AcceptRequest>;
}

/** Join {organization}: who invited, the invitation's details, and the two passwords (spec §2). */
export function AcceptInvitationForm({ invitation, accept }: AcceptInvitationFormProps) {
  const [newPassword, setNewPassword] = useState(EMPTY_NEW_PASSWORD);
  const { password, confirmation } = newPassword;
  const [problem, setProblem] = useState<string | null>(null);
  const errorId = useId();
  const organization = invitation.organization_name ?? 'your organization';
  const inviter = invitation.invited_by_name?.trim() || invitation.invited_by_email || null;
  const error =
    problem ?? (accept.isError ? errorMessage(accept.error, 'Failed to accept invitation') : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = passwordProblem(password, confirmation);
    setProblem(found);
    if (!found) accept.mutate({ invitation, password });
  };

  return (
    <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
      <div className="text-center">
        <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-primary-100 text-primary-700">
          <Mail className="h-6 w-6" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-gray-900">Join {organization}</h1>
        <p className="mt-2 text-sm text-gray-600">
          {inviter
            ? `${inviter} has invited you to join ${organization}.`
            : `You have been invited to join ${organization}.`}
        </p>
      </div>

      <dl className="mt-6 space-y-2 rounded-md bg-gray-50 p-4 text-sm">
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
        onSubmit={onSubmit}
        aria-describedby={error ? errorId : undefined}
        className="mt-6 space-y-4"
      >
        <div id={errorId}>
          <FormError>{error}</FormError>
        </div>
        <NewPasswordFields
          value={newPassword}
          onChange={setNewPassword}
          passwordLabel="Create Password"
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
    </section>
  );
}
