import { Inbox } from 'lucide-react';
import { useState } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { useOutbox, useRetryOutboxMessage, type OutboxMessage } from './api/outbox.ts';

const STATUS_TEXT: Record<OutboxMessage['status'], string> = {
  queued: 'Being sent',
  sent: 'Sent',
  failed: 'Failed',
  outbox: 'In the Outbox (not sent)',
};

const KIND_TEXT: Record<OutboxMessage['kind'], string> = {
  documents: 'Documents',
  invitation: 'Invitation',
  reminders: 'Reminders',
  document_request: 'Request for a document',
  test: 'Test e-mail',
};

/**
 * `/outbox` (admins): every message the organisation's Steward sent or kept. Without an SMTP
 * server, messages stay here, readable in full, and nothing claims they were delivered; a
 * failed delivery shows its error and can be sent again.
 */
export function OutboxPage() {
  const { profile, profileLoading } = useSession();
  if (profileLoading) return <Spinner />;
  if (!isAdminRole(profile?.role)) {
    return (
      <p className="text-sm text-gray-600">
        Access Restricted: You need admin privileges to read the Outbox.
      </p>
    );
  }
  return <OutboxList />;
}

function OutboxList() {
  const outbox = useOutbox();
  const retry = useRetryOutboxMessage();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-semibold text-gray-900">
          <Inbox className="h-6 w-6 text-gray-500" aria-hidden="true" /> Outbox
        </h1>
        <p className="text-sm text-gray-600">
          Every e-mail of your organization: documents sent, invitations and reminders. When e-mail
          delivery is not set up, messages are kept here and not sent.
        </p>
      </div>
      {outbox.isPending && <Spinner label="Loading the outbox..." />}
      {outbox.isError && (
        <ErrorPanel title={`The outbox could not be loaded: ${errorMessage(outbox.error)}`} />
      )}
      {outbox.data?.length === 0 && <p className="text-sm text-gray-600">No messages yet.</p>}
      {outbox.data && outbox.data.length > 0 && (
        <Card as="ul" padding="none" className="divide-y divide-gray-100">
          {outbox.data.map((message) => (
            <li key={message.id} className="px-4 py-3">
              <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
                <button
                  type="button"
                  className="min-w-0 text-left"
                  aria-expanded={open === message.id}
                  onClick={() => setOpen(open === message.id ? null : message.id)}
                >
                  <span className="block truncate font-medium text-gray-900">
                    {message.subject}
                  </span>
                  <span className="block text-xs text-gray-500">
                    {KIND_TEXT[message.kind]} to {message.recipients.join(', ')} ·{' '}
                    {formatDateTime(message.created_at)}
                  </span>
                </button>
                <span className="flex shrink-0 items-center gap-2 text-sm">
                  <span data-status={message.status}>{STATUS_TEXT[message.status]}</span>
                  {message.status === 'failed' && (
                    <Button
                      size="sm"
                      variant="secondary"
                      busy={retry.isPending && retry.variables === message.id}
                      busyLabel="Sending..."
                      onClick={() => retry.mutate(message.id)}
                    >
                      Send again
                    </Button>
                  )}
                </span>
              </div>
              {message.last_error && (
                <p className="mt-1 text-xs text-destructive-700">
                  Last error ({message.attempts} {message.attempts === 1 ? 'attempt' : 'attempts'}):{' '}
                  {message.last_error}
                </p>
              )}
              {open === message.id && (
                <pre className="mt-2 max-h-96 overflow-auto rounded bg-gray-50 p-3 text-xs whitespace-pre-wrap text-gray-800">
                  {message.text_body ?? 'The message is being written.'}
                </pre>
              )}
            </li>
          ))}
        </Card>
      )}
    </div>
  );
}
