import { AlertTriangle, FileText, Info } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input, Textarea } from '../../../components/ui/form-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import { formatFileSize } from '../../../lib/format.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import type { SendDocumentsEmail, SentStatus } from '../api/send-documents-email.ts';
import { useEmailDocumentsForm } from '../hooks/use-email-documents-form.ts';
import { attachmentsTooLarge, totalAttachmentSize } from '../lib/attachments.ts';

export interface EmailDocumentsDialogProps {
  documents: readonly DocumentRecord[];
  onClose: () => void;
  /** Called after a successful send; the caller closes the dialog and confirms. */
  onSent: (status: SentStatus) => void;
  /** The sender; the server's by default (tests pass their own). */
  send?: SendDocumentsEmail;
}

/** Asked before the page is left with an e-mail typed but not sent. */
export const UNSENT_EMAIL_QUESTION =
  'Your email has not been sent. If you leave this page, what you typed will be lost.';

/** The Email Documents dialog: To, Subject, an optional message and the attachments (spec §5). */
export function EmailDocumentsDialog({
  documents,
  onClose,
  onSent,
  send,
}: EmailDocumentsDialogProps) {
  const form = useEmailDocumentsForm(documents, { send, onSent });
  const total = totalAttachmentSize(documents);
  useLeaveGuard(form.typed && !form.sent, UNSENT_EMAIL_QUESTION);

  return (
    <Modal title="Email Documents" onClose={onClose} size="lg" dismissible={!form.sending}>
      <form ref={form.formRef} onSubmit={form.submit} noValidate className="space-y-4">
        <FormField
          label="To"
          hint="Separate several addresses with commas."
          error={form.problems?.to}
        >
          {(props) => (
            <Input
              {...props}
              type="text"
              inputMode="email"
              autoComplete="email"
              value={form.to}
              onChange={(event) => form.setTo(event.target.value)}
              placeholder="name@example.com, another@example.com"
              required
            />
          )}
        </FormField>
        <FormField label="Subject" error={form.problems?.subject}>
          {(props) => (
            <Input
              {...props}
              type="text"
              value={form.subject}
              onChange={(event) => form.setSubject(event.target.value)}
              required
            />
          )}
        </FormField>
        <FormField label="Message (optional)">
          {(props) => (
            <Textarea
              {...props}
              rows={4}
              value={form.message}
              onChange={(event) => form.setMessage(event.target.value)}
            />
          )}
        </FormField>

        <section aria-label="Attachments">
          <h3 className="text-sm font-medium text-gray-700">
            Attachments ({documents.length}, {formatFileSize(total)})
          </h3>
          <ul className="mt-2 divide-y divide-gray-100 rounded-md border border-gray-200">
            {documents.map((document) => (
              <li key={document.id} className="flex items-center gap-2 px-3 py-2 text-sm">
                <FileText className="h-4 w-4 shrink-0 text-gray-400" aria-hidden="true" />
                <span className="min-w-0 flex-1 truncate text-gray-900">{document.name}</span>
                <span className="shrink-0 text-gray-500">{formatFileSize(document.size)}</span>
              </li>
            ))}
          </ul>
          {attachmentsTooLarge(documents) && (
            <p
              role="status"
              data-tone="warning"
              className="mt-2 flex items-start gap-2 rounded-md border border-tone-300 bg-tone-50 p-3 text-sm text-tone-800"
            >
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              <span>
                Warning: these attachments total {formatFileSize(total)}, which is more than 25MB.
                Many email services will not deliver messages this large; consider sending fewer
                documents at a time.
              </span>
            </p>
          )}
        </section>

        <fieldset className="space-y-1 text-sm">
          <legend className="font-medium text-gray-700">Send the documents as</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="send-as"
              checked={!form.asLinks}
              onChange={() => form.setAsLinks(false)}
            />
            Attachments
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="send-as"
              checked={form.asLinks}
              onChange={() => form.setAsLinks(true)}
            />
            Links that work for 7 days (while you remain a member)
          </label>
        </fieldset>

        <p className="flex items-start gap-2 text-xs text-gray-500">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Steward sends the e-mail from the server. If e-mail delivery is not set up, it is placed
            in the Outbox instead, where an administrator can see it.
          </span>
        </p>

        <DialogActions className="">
          <Button variant="secondary" onClick={onClose} disabled={form.sending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!form.canSend} busy={form.sending} busyLabel="Sending...">
            Send Email
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
