import { AlertTriangle, FileText, Info } from 'lucide-react';
import { useId } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { formatFileSize } from '../../../lib/format.ts';
import type { DocumentRecord } from '../../documents/api/document.ts';
import type { SendDocumentsEmail } from '../api/send-documents-email.ts';
import { useEmailDocumentsForm } from '../hooks/use-email-documents-form.ts';
import { attachmentsTooLarge, totalAttachmentSize } from '../lib/attachments.ts';

export interface EmailDocumentsDialogProps {
  documents: readonly DocumentRecord[];
  onClose: () => void;
  /** Called after a successful send; the caller closes the dialog and confirms. */
  onSent: () => void;
  /** The sender; the simulated one by default (a real one can be passed in later). */
  send?: SendDocumentsEmail;
}

const inputClass =
  'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500 focus:outline-none';

/** The Email Documents dialog: To, Subject, an optional message and the attachments (spec §5). */
export function EmailDocumentsDialog({
  documents,
  onClose,
  onSent,
  send,
}: EmailDocumentsDialogProps) {
  const form = useEmailDocumentsForm(documents, { send, onSent });
  const ids = { to: useId(), toHint: useId(), subject: useId(), message: useId() };
  const total = totalAttachmentSize(documents);

  return (
    <Modal title="Email Documents" onClose={onClose} size="lg" dismissible={!form.sending}>
      <form onSubmit={(event) => void form.submit(event)} noValidate className="space-y-4">
        <div>
          <label htmlFor={ids.to} className="block text-sm font-medium text-gray-700">
            To
          </label>
          <input
            id={ids.to}
            type="text"
            inputMode="email"
            autoComplete="email"
            value={form.to}
            onChange={(event) => form.setTo(event.target.value)}
            placeholder="name@example.com, another@example.com"
            aria-describedby={ids.toHint}
            required
            className={inputClass}
          />
          <p id={ids.toHint} className="mt-1 text-xs text-gray-500">
            Separate several addresses with commas.
          </p>
        </div>
        <div>
          <label htmlFor={ids.subject} className="block text-sm font-medium text-gray-700">
            Subject
          </label>
          <input
            id={ids.subject}
            type="text"
            value={form.subject}
            onChange={(event) => form.setSubject(event.target.value)}
            required
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor={ids.message} className="block text-sm font-medium text-gray-700">
            Message (optional)
          </label>
          <textarea
            id={ids.message}
            rows={4}
            value={form.message}
            onChange={(event) => form.setMessage(event.target.value)}
            className={inputClass}
          />
        </div>

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
              className="mt-2 flex items-start gap-2 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-800"
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

        <p className="flex items-start gap-2 text-xs text-gray-500">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Email sending is simulated in this version of Steward: no message actually leaves the
            app.
          </span>
        </p>

        {form.error && (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
          >
            {form.error}
          </p>
        )}

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onClose}
            disabled={form.sending}
            className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={!form.canSend}
            className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {form.sending ? 'Sending...' : 'Send Email'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
