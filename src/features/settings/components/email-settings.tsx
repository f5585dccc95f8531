import { Mail } from 'lucide-react';
import { Card } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useMailDelivery } from '../../../lib/mail-delivery.ts';

/**
 * How this installation's e-mail goes out: sent through SMTP, or kept in the Outbox until an
 * administrator of the installation sets SMTP up (`[auth.email.smtp]` or `SMTP_URL`).
 */
export function EmailSettings() {
  const delivery = useMailDelivery();
  return (
    <Card as="section" aria-labelledby="email-settings">
      <h2
        id="email-settings"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <Mail className="h-5 w-5 text-gray-500" aria-hidden="true" /> E-mail
      </h2>
      {delivery.isPending ? (
        <Spinner label="Loading..." />
      ) : delivery.data === 'smtp' ? (
        <p className="mt-2 text-sm text-gray-700">
          E-mail is set up: invitations, reminders and documents are sent through this
          installation's mail server.
        </p>
      ) : (
        <div className="mt-2 space-y-2 text-sm break-words text-gray-700">
          <p className="rounded-md bg-amber-50 p-3 text-amber-900">
            E-mail is not set up: nothing is sent. Invitations, reminders and documents are kept in
            the Outbox, where admins can read them and copy their links.
          </p>
          <p>
            To send e-mail, whoever runs this installation sets its mail server: the{' '}
            <code>[auth.email.smtp]</code> section of <code>supabase/config.toml</code>, or the{' '}
            <code>SMTP_URL</code> setting (for example{' '}
            <code className="break-all">smtps://user:password@mail.example.org:465</code>), then
            restarts Steward.
          </p>
        </div>
      )}
    </Card>
  );
}
