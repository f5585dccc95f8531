import { FileDown, FileText, Lock, XCircle } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { AuthLayout } from '../../components/ui/auth-layout.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormField, Input } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { isRenderedOffice, previewKind } from '../../lib/file-kinds.ts';
import { formatDateTime, formatFileSize } from '../../lib/format.ts';
import {
  LINK_GONE,
  sharedFileUrl,
  useSharedFile,
  useSharedPdf,
  useSharedPreview,
  useSharedLink,
  useUnlockSharedLink,
  type SharedDocument,
} from './api/shared-document.ts';

/**
 * The page a share link opens (`/s/{token}`), for someone without an account: the password
 * first when the link has one, then the document's name, a preview and Download; nothing else
 * of the organisation. A link that does not work says so, whatever the reason.
 */
export function SharedDocumentPage() {
  const token = useParams().token ?? '';
  const link = useSharedLink(token);
  const unlock = useUnlockSharedLink(token);
  const document = unlock.data ?? (link.data && !link.data.password_required ? link.data : null);

  if (link.isPending) return <Spinner label="Opening the link..." fullScreen />;
  if (link.isError) {
    return (
      <AuthLayout icon={XCircle} tone="danger" title="Link not available">
        <p role="alert" className="text-center text-sm text-gray-600">
          {errorMessage(link.error, LINK_GONE)}
        </p>
      </AuthLayout>
    );
  }
  if (!document) return <PasswordForm unlock={unlock} />;
  return <SharedDocumentView token={token} document={document} />;
}

function PasswordForm({ unlock }: { unlock: ReturnType<typeof useUnlockSharedLink> }) {
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    unlock.mutate(password);
  };
  return (
    <AuthLayout
      icon={Lock}
      title="This link is protected"
      description="Enter the password you were given to see the document."
    >
      <form onSubmit={submit} className="space-y-4">
        <FormField
          label="Password"
          required
          error={unlock.isError ? errorMessage(unlock.error, 'Wrong password') : null}
        >
          {(field) => (
            <Input
              {...field}
              type="password"
              autoComplete="off"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </FormField>
        <Button type="submit" className="w-full" busy={unlock.isPending}>
          Open
        </Button>
      </form>
    </AuthLayout>
  );
}

function SharedDocumentView({ token, document }: { token: string; document: SharedDocument }) {
  const kind = previewKind(document.name);
  const rendered = isRenderedOffice(document.name);
  // PDFs are framed from their own address (named after the document), the rest fetched here.
  const fetched = kind === 'image' || kind === 'text';
  const previewable = kind === 'pdf' || fetched;
  const file = useSharedFile(token, document, fetched);
  const pdf = useSharedPdf(token, document, kind === 'pdf');
  const office = useSharedPreview(token, document, rendered);
  const objectUrl = useMemo(
    () => (file.data && kind !== 'text' ? URL.createObjectURL(file.data) : null),
    [file.data, kind],
  );
  useEffect(() => () => (objectUrl ? URL.revokeObjectURL(objectUrl) : undefined), [objectUrl]);
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (kind === 'text' && file.data) void file.data.text().then(setText);
  }, [file.data, kind]);

  return (
    <main className="min-h-screen bg-gray-50 px-4 py-6 sm:px-8">
      <Card as="section" padding="lg" className="mx-auto max-w-5xl space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="text-xl font-semibold break-words text-gray-900">{document.name}</h1>
            <p className="text-sm text-gray-600">
              {formatFileSize(document.size)} · link works until{' '}
              {formatDateTime(document.expires_at)}
            </p>
          </div>
          <a
            href={sharedFileUrl(token, document.access, true)}
            className={buttonClass({ variant: 'primary' })}
            download
          >
            <FileDown className="h-4 w-4" aria-hidden="true" />
            Download
          </a>
        </div>
        {((fetched && file.isPending) ||
          (kind === 'pdf' && pdf.isPending) ||
          (rendered && office.isPending)) && <Spinner label="Loading preview..." />}
        {(file.isError || pdf.isError || office.isError) && (
          <p role="alert" className="text-sm text-destructive-700">
            {errorMessage(file.error ?? pdf.error ?? office.error, LINK_GONE)}
          </p>
        )}
        {rendered && office.data && (
          <iframe
            src={office.data}
            sandbox=""
            title={document.name}
            className="h-[75vh] w-full rounded border border-gray-200 bg-white"
          />
        )}
        {kind === 'pdf' && pdf.data && (
          <iframe
            src={pdf.data}
            title={`Preview of ${document.name}`}
            className="h-[75vh] w-full rounded border border-gray-200"
          />
        )}
        {kind === 'image' && objectUrl && (
          <div className="flex justify-center">
            <img src={objectUrl} alt={document.name} className="max-h-[75vh] max-w-full" />
          </div>
        )}
        {kind === 'text' && text !== null && (
          <pre className="max-h-[75vh] overflow-auto rounded border border-gray-200 bg-white p-4 text-sm whitespace-pre-wrap">
            {text}
          </pre>
        )}
        {!previewable && !rendered && (
          <div className="flex flex-col items-center gap-2 py-10 text-center text-gray-600">
            <FileText className="h-10 w-10" aria-hidden="true" />
            <p>This file cannot be previewed here. Download it to open it.</p>
          </div>
        )}
      </Card>
    </main>
  );
}
