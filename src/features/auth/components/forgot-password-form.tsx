import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { AuthLayout } from '../../../components/ui/auth-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useMailDelivery } from '../../../lib/mail-delivery.ts';
import { useRequestPasswordReset } from '../api/password-reset.ts';

/** Said instead of the form when this installation keeps e-mail in the Outbox (no SMTP). */
export const CANNOT_SEND_RESET_LINK =
  'This installation cannot send e-mail, so no reset link can be sent to you. Please ask an administrator of your organization: they can make you a one-time link to set a new password.';

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
  const delivery = useMailDelivery();
  // Nothing would arrive: the page says so rather than "we have sent it a link".
  const cannotSend = delivery.data === 'outbox';
  const errorId = useId();
  const error = request.isError ? errorMessage(request.error, 'An error occurred') : null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    request.mutate(email, { onError: (failure) => console.error('Password reset', failure) });
  };

  return (
    <AuthLayout
      icon={KeyRound}
      title="Reset your password"
      description="Enter your email address and we will send you a link to set a new password."
    >
      <form
        onSubmit={onSubmit}
        aria-describedby={error ? errorId : undefined}
        className="space-y-5"
      >
        <div id={errorId}>
          <FormError>{error}</FormError>
        </div>
        {cannotSend ? (
          <p
            role="status"
            data-tone="warning"
            className="rounded-md bg-amber-50 p-3 text-sm text-amber-900"
          >
            {CANNOT_SEND_RESET_LINK}
          </p>
        ) : request.isSuccess ? (
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
    </AuthLayout>
  );
}
