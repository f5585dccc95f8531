import { MailCheck, XCircle } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router-dom';
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

  let content;
  if (
    !tokenHash ||
    !isConfirmation(type) ||
    confirm.error instanceof ConfirmationLinkInvalidError
  ) {
    content = (
      <>
        <XCircle className="mx-auto h-12 w-12 text-destructive-500" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold text-gray-900">Invalid Link</h1>
        <p role="alert" className="mt-2 text-sm text-gray-600">
          {tokenHash && isConfirmation(type)
            ? CONFIRMATION_LINK_INVALID
            : 'Invalid confirmation link'}
        </p>
        <Button className="mt-6" onClick={() => void navigate(paths.dashboard)}>
          Go to Login
        </Button>
      </>
    );
  } else {
    const text = TEXTS[type];
    content = (
      <>
        <MailCheck className="mx-auto h-12 w-12 text-primary-600" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold text-gray-900">{text.heading}</h1>
        {confirm.isSuccess ? (
          <>
            <p role="status" className="mt-2 text-sm text-gray-600">
              {'email' in confirm.data ? `${text.done} ${confirm.data.email}.` : OTHER_LINK_NEEDED}
            </p>
            <Button className="mt-6" onClick={() => void navigate(paths.dashboard)}>
              Continue
            </Button>
          </>
        ) : (
          <>
            <div className="mt-4 text-left">
              <FormError>
                {confirm.isError ? errorMessage(confirm.error, 'Failed to confirm') : null}
              </FormError>
            </div>
            <Button
              className="mt-6"
              busy={confirm.isPending}
              busyLabel="Confirming..."
              onClick={() => confirm.mutate({ tokenHash, type })}
            >
              {text.action}
            </Button>
          </>
        )}
      </>
    );
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-8 text-center shadow-sm">
        {content}
      </section>
    </main>
  );
}
