import { FilePlus2 } from 'lucide-react';
import { useState } from 'react';
import { useFeedback } from '../../components/feedback.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import {
  requestLinkUrl,
  useCloseRequest,
  useRequests,
  useResendRequest,
  type RequestLink,
  type RequestWithRecipients,
} from './api/requests.ts';
import { NewRequestForm } from './components/new-request-form.tsx';

/**
 * Document requests (admins): ask named people for a document, see who has sent theirs and who
 * has not, send a link again, close a request. The links of people without an e-mail address
 * are shown once, when they are made, to be handed out.
 */
export function RequestsPage() {
  const requests = useRequests();
  const [creating, setCreating] = useState(false);
  const [links, setLinks] = useState<RequestLink[]>([]);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900">Document requests</h1>
          <p className="text-sm text-gray-600">
            Ask people for a document; they send it through their own link, without an account.
          </p>
        </div>
        {!creating && (
          <Button icon={FilePlus2} onClick={() => setCreating(true)}>
            New request
          </Button>
        )}
      </div>

      {creating && (
        <NewRequestForm
          onCancel={() => setCreating(false)}
          onCreated={(made) => {
            setCreating(false);
            setLinks(made);
          }}
        />
      )}
      {links.length > 0 && <NewLinks links={links} onDismiss={() => setLinks([])} />}

      {requests.isPending && <Spinner label="Loading requests..." />}
      {requests.isError && (
        <p role="alert" className="text-sm text-destructive-700">
          {errorMessage(requests.error)}
        </p>
      )}
      {requests.data?.length === 0 && !creating && (
        <p className="text-sm text-gray-600">No requests yet.</p>
      )}
      {requests.data?.map((request) => (
        <RequestCard key={request.id} request={request} onLink={(link) => setLinks([link])} />
      ))}
    </div>
  );
}

/** The links just made or sent again: e-mailed, or to hand out (shown only now). */
function NewLinks({ links, onDismiss }: { links: RequestLink[]; onDismiss: () => void }) {
  return (
    <Card as="section" aria-label="New links" className="space-y-3 border-primary-200">
      <h2 className="text-base font-semibold text-gray-900">Links</h2>
      <ul className="space-y-2">
        {links.map((link) => (
          <li key={link.recipient_id} className="text-sm">
            <span className="font-medium text-gray-900">{link.name}</span>{' '}
            {link.email ? (
              <span className="text-gray-600">
                — {link.mail_status === 'outbox' ? 'in the Outbox' : 'e-mailed'} to {link.email}
              </span>
            ) : (
              <span className="flex flex-wrap items-center gap-2">
                <code className="break-all text-gray-700">{requestLinkUrl(link.token ?? '')}</code>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Copy the link for ${link.name}`}
                  onClick={() =>
                    void navigator.clipboard
                      ?.writeText(requestLinkUrl(link.token ?? ''))
                      .catch(() => undefined)
                  }
                >
                  Copy
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
      <Button variant="secondary" size="sm" onClick={onDismiss}>
        Done
      </Button>
    </Card>
  );
}

function RequestCard({
  request,
  onLink,
}: {
  request: RequestWithRecipients;
  onLink: (link: RequestLink) => void;
}) {
  const resend = useResendRequest();
  const close = useCloseRequest();
  const { confirm } = useFeedback();
  const closeIt = async () => {
    const question = `Close "${request.title}"? Its links stop working.`;
    if (await confirm(question, { confirmLabel: 'Close request', destructive: true })) {
      close.mutate(request.id);
    }
  };
  const asked = request.recipients.filter((r) => r.renews_document_id === null);
  const sent = asked.filter((r) => r.submitted_at !== null).length;
  const open = request.closed_at === null;

  return (
    <Card as="section" aria-label={request.title} className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 className="text-base font-semibold break-words text-gray-900">{request.title}</h2>
          <p className="text-sm text-gray-600">
            {request.category}
            {request.due_date && <> · due {formatDate(request.due_date)}</>} · {sent} of{' '}
            {asked.length} sent
            {!open && <> · closed</>}
          </p>
        </div>
        {open && (
          <Button variant="destructive-outline" size="sm" onClick={() => void closeIt()}>
            Close request
          </Button>
        )}
      </div>
      <ul className="divide-y divide-gray-200">
        {request.recipients.map((recipient) => (
          <li
            key={recipient.id}
            className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
          >
            <div className="min-w-0">
              <p className="font-medium break-words text-gray-900">
                {recipient.name}
                {recipient.renews_document_id && (
                  <span className="ml-1 text-gray-500">(renewal)</span>
                )}
              </p>
              <p className="break-all text-gray-600">
                {recipient.submitted_at
                  ? `From ${recipient.submitter_name ?? recipient.name}${
                      recipient.submitter_email ? ` <${recipient.submitter_email}>` : ''
                    }`
                  : (recipient.email ?? 'Link handed out')}
              </p>
            </div>
            {recipient.submitted_at ? (
              <span className="text-green-700">Sent {formatDateTime(recipient.submitted_at)}</span>
            ) : (
              <span className="flex items-center gap-2">
                <span className="text-gray-600">Not sent yet</span>
                {open && (
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Send the link to ${recipient.name} again`}
                    busy={resend.isPending && resend.variables === recipient.id}
                    onClick={() => resend.mutate(recipient.id, { onSuccess: onLink })}
                  >
                    Send again
                  </Button>
                )}
              </span>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
