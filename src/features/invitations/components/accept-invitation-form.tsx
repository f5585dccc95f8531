import { Mail } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { PasswordInput } from '../../../components/password-input.tsx';
import { ROLE_LABELS } from '../../../lib/roles.ts';
import type { InvitationDetails } from '../api/invitation.ts';
import { useAcceptInvitation } from '../hooks/use-accept-invitation.ts';

export interface AcceptInvitationFormProps {
  token: string;
  invitation: InvitationDetails;
}

/** Join {organization}: who invited, the invitation's details, and the two passwords (spec §2). */
export function AcceptInvitationForm({ token, invitation }: AcceptInvitationFormProps) {
  const { submitting, error, submit } = useAcceptInvitation(token, invitation.email);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const passwordId = useId();
  const confirmationId = useId();
  const errorId = useId();
  const organization = invitation.organization_name ?? 'your organization';
  const inviter = invitation.invited_by_name?.trim() || invitation.invited_by_email || null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(password, confirmation);
  };

  return (
    <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
      <div className="text-center">
        <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-blue-100 text-blue-700">
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
            {invitation.role ? ROLE_LABELS[invitation.role] : ROLE_LABELS.user}
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
          <label htmlFor={passwordId} className="block text-sm font-medium text-gray-700">
            Create Password
          </label>
          <div className="mt-1">
            <PasswordInput
              id={passwordId}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
              required
            />
          </div>
        </div>
        <div>
          <label htmlFor={confirmationId} className="block text-sm font-medium text-gray-700">
            Confirm Password
          </label>
          <div className="mt-1">
            <PasswordInput
              id={confirmationId}
              value={confirmation}
              onChange={(event) => setConfirmation(event.target.value)}
              autoComplete="new-password"
              required
            />
          </div>
        </div>
        <button
          type="submit"
          disabled={submitting || !password || !confirmation}
          className="w-full rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {submitting ? 'Creating account...' : 'Accept Invitation & Create Account'}
        </button>
        <p className="text-center text-xs text-gray-500">
          Already have an account with this email? Enter its password in both fields to join.
        </p>
      </form>
    </section>
  );
}
