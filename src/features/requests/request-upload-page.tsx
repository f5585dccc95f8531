import { CheckCircle2, FileUp, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { AuthLayout } from '../../components/ui/auth-layout.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FileDrop } from '../../components/ui/file-drop.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { FormField, Input } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { isUploadAccepted, UPLOAD_ACCEPT } from '../../lib/file-kinds.ts';
import { formatDate, formatFileSize } from '../../lib/format.ts';
import {
  LINK_GONE,
  useRequestPage,
  useSendRequestedDocument,
  type RequestPage,
} from './api/request-link.ts';

/**
 * The page a document request's link opens (`/r/{token}`), for someone without an account:
 * who asks for what, then their name, e-mail, the expiry date (when asked for) and the file.
 * The server checks everything again and answers with the reason when it refuses.
 */
export function RequestUploadPage() {
  const token = useParams().token ?? '';
  const page = useRequestPage(token);
  const send = useSendRequestedDocument(token);

  if (page.isPending) return <Spinner label="Opening the link..." fullScreen />;
  if (send.isSuccess) {
    return (
      <AuthLayout icon={CheckCircle2} title="Thank you">
        <p role="status" className="text-center text-sm text-gray-600">
          {page.data?.organization_name ?? 'The organization'} has received “
          {send.data.document_name}”.
        </p>
      </AuthLayout>
    );
  }
  if (page.isError) {
    return (
      <AuthLayout icon={XCircle} tone="danger" title="Link not available">
        <p role="alert" className="text-center text-sm text-gray-600">
          {errorMessage(page.error, LINK_GONE)}
        </p>
      </AuthLayout>
    );
  }
  return <UploadForm request={page.data} send={send} />;
}

function UploadForm({
  request,
  send,
}: {
  request: RequestPage;
  send: ReturnType<typeof useSendRequestedDocument>;
}) {
  const [name, setName] = useState(request.recipient_name);
  const [email, setEmail] = useState(request.recipient_email ?? '');
  const [expiryDate, setExpiryDate] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ name?: string; expiry?: string; file?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Please enter your name';
    if (request.expiry_required && !expiryDate) found.expiry = 'Please enter the expiry date';
    if (!file) found.file = 'Please choose the file to send';
    else if (file.size > request.max_file_bytes) {
      found.file = `The file is larger than ${formatFileSize(request.max_file_bytes)}.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0 || !file) return;
    send.mutate({ name, email, expiryDate, file });
  };

  const renewal = request.renews_document_name !== null;
  return (
    <AuthLayout
      icon={FileUp}
      title={request.title}
      description={
        <>
          {request.requested_by ?? 'Someone'} of {request.organization_name}{' '}
          {renewal ? 'asks you for the renewal of this document.' : 'asks you for this document.'}
          {request.due_date && <> Please send it by {formatDate(request.due_date)}.</>}
        </>
      }
    >
      {request.instructions && (
        <p className="mb-4 text-sm whitespace-pre-line text-gray-700">{request.instructions}</p>
      )}
      <form onSubmit={submit} className="space-y-4" noValidate>
        <FormField label="Your name" required error={errors.name}>
          {(field) => (
            <Input
              {...field}
              value={name}
              autoComplete="name"
              maxLength={200}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Your e-mail">
          {(field) => (
            <Input
              {...field}
              type="email"
              value={email}
              autoComplete="email"
              readOnly={request.recipient_email !== null}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </FormField>
        <FormField
          label="Expiry date"
          required={request.expiry_required}
          error={errors.expiry}
          hint="The date printed on the document after which it is no longer valid."
        >
          {(field) => (
            <Input
              {...field}
              type="date"
              value={expiryDate}
              onChange={(event) => setExpiryDate(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Document" required error={errors.file}>
          {(field) => (
            <FileDrop
              {...field}
              size="sm"
              accept={UPLOAD_ACCEPT}
              chosen={file}
              onFiles={(files) => {
                const chosen = files[0] ?? null;
                if (chosen && !isUploadAccepted(chosen.name)) {
                  setErrors((current) => ({
                    ...current,
                    file: 'Please send a PDF, Word or Excel file, or a JPEG, PNG or GIF image.',
                  }));
                  return;
                }
                setErrors((current) => ({ ...current, file: undefined }));
                setFile(chosen);
              }}
            />
          )}
        </FormField>
        <FormError>{send.isError ? errorMessage(send.error) : null}</FormError>
        <Button type="submit" className="w-full" busy={send.isPending}>
          Send document
        </Button>
      </form>
    </AuthLayout>
  );
}
