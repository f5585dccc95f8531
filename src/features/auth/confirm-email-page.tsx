import { MailCheck } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { InvalidLink } from '../../components/invalid-link.tsx';
import { AuthLayout } from '../../components/ui/auth-layout.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { paths } from '../../config/paths.ts';
import { errorMessage } from '../../lib/errors.ts';
import {
  ConfirmationLinkInvalidError,
  useConfirmEmail,
  type EmailConfirmation,
} from './api/confirm-email.ts';

export const CONFIRMATION_LINK_INVALID =
  'This confirmation link is invalid or has expired. Ask for a new one.';
export const OTHER_LINK_NEEDED =
  'Confirmed. To finish the change, also open the link we sent to your other email address.';

const TEXTS: Record<EmailConfirmation, { heading: string; action: string; done: string }> = {
  email_change: {
    heading: 'Confirm your new email address',
    action: 'Confirm Email Change',
    done: 'Your email address is now',
  },
  signup: {
    heading: 'Confirm your email address',
    action: 'Confirm Email',
    done: 'Your account is confirmed:',
  },
};

const isConfirmation = (type: string | null): type is EmailConfirmation =>
  type === 'email_change' || type === 'signup';

/**
 * The page a confirmation e-mail opens (`/confirm-email?token_hash=…&type=email_change|signup`).
 * The link is used only when the button is pressed, so a mail scanner that opens it uses
 * nothing up; the person is then signed in.
 */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const tokenHash = params.get('token_hash')?.trim() ?? '';
  const type = params.get('type');
  const navigate = useNavigate();
  const confirm = useConfirmEmail();

  if (!tokenHash || !isConfirmation(type))
    return <InvalidLink message="Invalid confirmation link" />;
  if (confirm.error instanceof ConfirmationLinkInvalidError) {
    return <InvalidLink message={CONFIRMATION_LINK_INVALID} />;
  }
  const text = TEXTS[type];
  return (
    <AuthLayout icon={MailCheck} title={text.heading}>
      {confirm.isSuccess ? (
        <>
          <p role="status" className="text-center text-sm text-gray-600">
            {'email' in confirm.data ? `${text.done} ${confirm.data.email}.` : OTHER_LINK_NEEDED}
          </p>
          <Button className="mt-6 w-full" onClick={() => void navigate(paths.dashboard)}>
            Continue
          </Button>
        </>
      ) : (
        <>
          <FormError>
            {confirm.isError ? errorMessage(confirm.error, 'Failed to confirm') : null}
          </FormError>
          <Button
            className="mt-6 w-full"
            busy={confirm.isPending}
            busyLabel="Confirming..."
            onClick={() => confirm.mutate({ tokenHash, type })}
          >
            {text.action}
          </Button>
        </>
      )}
    </AuthLayout>
  );
}
