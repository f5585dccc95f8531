import { Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useMailDelivery } from '../../../lib/mail-delivery.ts';
import {
  useMailServer,
  useRemoveMailServer,
  useSaveMailServer,
  useSendTestEmail,
  type MailServer,
  type TestEmailResult,
} from '../api/mail-server.ts';

/** A browser's `<input type="email">` rule, checked before the server is asked. */
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * How the organisation's e-mail goes out (admins): through its own SMTP server when it set one
 * here, else through the installation's (`[auth.email.smtp]` or `SMTP_URL`), else not at all
 * (kept in the Outbox). **Send a test e-mail** sends one to the admin and says what the SMTP
 * server answered.
 */
export function EmailSettings() {
  const delivery = useMailDelivery();
  const server = useMailServer();
  return (
    <Card as="section" aria-labelledby="email-settings">
      <h2
        id="email-settings"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <Mail className="h-5 w-5 text-gray-500" aria-hidden="true" /> E-mail
      </h2>
      {delivery.isPending || server.isPending ? (
        <Spinner label="Loading..." />
      ) : (
        <>
          <DeliveryStatus server={server.data ?? null} delivery={delivery.data ?? 'outbox'} />
          <MailServerForm
            key={server.data ? `${server.data.host}:${server.data.port}` : 'none'}
            server={server.data ?? null}
            canTest={delivery.data === 'smtp'}
          />
        </>
      )}
    </Card>
  );
}

function DeliveryStatus({
  server,
  delivery,
}: {
  server: MailServer | null;
  delivery: 'smtp' | 'outbox';
}) {
  if (server) {
    return (
      <p className="mt-2 text-sm break-words text-gray-700">
        E-mail is set up: invitations, reminders and documents are sent through your
        organization&rsquo;s mail server, {server.host}, from {server.from_address}.
      </p>
    );
  }
  if (delivery === 'smtp') {
    return (
      <p className="mt-2 text-sm text-gray-700">
        E-mail is set up: invitations, reminders and documents are sent through this
        installation&rsquo;s mail server. To send from your organization&rsquo;s own address, enter
        its mail server below.
      </p>
    );
  }
  return (
    <div className="mt-2 space-y-2 text-sm break-words text-gray-700">
      <p className="rounded-md bg-amber-50 p-3 text-amber-900">
        E-mail is not set up: nothing is sent. Invitations, reminders and documents are kept in the
        Outbox, where admins can read them and copy their links.
      </p>
      <p>
        To send e-mail, enter your organization&rsquo;s mail server below. Or whoever runs this
        installation sets its mail server: the <code>[auth.email.smtp]</code> section of{' '}
        <code>supabase/config.toml</code>, or the <code>SMTP_URL</code> setting (for example{' '}
        <code className="break-all">smtps://user:password@mail.example.org:465</code>), then
        restarts Steward.
      </p>
    </div>
  );
}

type Field = 'host' | 'port' | 'fromAddress';

function MailServerForm({ server, canTest }: { server: MailServer | null; canTest: boolean }) {
  const save = useSaveMailServer();
  const remove = useRemoveMailServer();
  const test = useSendTestEmail();
  const [host, setHost] = useState(server?.host ?? '');
  const [port, setPort] = useState(String(server?.port ?? 587));
  const [username, setUsername] = useState(server?.username ?? '');
  const [password, setPassword] = useState('');
  const [fromAddress, setFromAddress] = useState(server?.from_address ?? '');
  const { formRef, problems, report, clear } = useFormProblems<Field>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      host: host.trim() ? undefined : 'Enter the mail server, such as smtp.example.org.',
      port: /^\d{1,5}$/.test(port.trim()) ? undefined : 'Enter the port as a number, such as 587.',
      fromAddress: EMAIL_ADDRESS.test(fromAddress.trim())
        ? undefined
        : 'Enter the address your e-mail comes from.',
    };
    report(found);
    if (found.host || found.port || found.fromAddress) return;
    save.mutate(
      {
        host: host.trim(),
        port: Number(port.trim()),
        username: username.trim(),
        password,
        fromAddress: fromAddress.trim(),
      },
      { onSuccess: () => setPassword('') },
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="mt-4 space-y-3">
      <h3 className="text-base font-semibold text-gray-900">
        Your organization&rsquo;s mail server
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="SMTP server" required error={problems?.host}>
          {(props) => (
            <Input
              {...props}
              value={host}
              maxLength={253}
              autoComplete="off"
              placeholder="smtp.example.org"
              onChange={(event) => {
                setHost(event.target.value);
                clear('host');
              }}
            />
          )}
        </FormField>
        <FormField label="Port" required error={problems?.port} hint="Usually 587, or 465.">
          {(props) => (
            <Input
              {...props}
              value={port}
              inputMode="numeric"
              maxLength={5}
              onChange={(event) => {
                setPort(event.target.value);
                clear('port');
              }}
            />
          )}
        </FormField>
        <FormField label="User name">
          {(props) => (
            <Input
              {...props}
              value={username}
              maxLength={320}
              autoComplete="off"
              onChange={(event) => setUsername(event.target.value)}
            />
          )}
        </FormField>
        <FormField
          label="Password"
          hint={
            server?.has_password
              ? 'A password is saved. Leave this empty to keep it.'
              : 'Kept encrypted; nobody can read it back.'
          }
        >
          {(props) => (
            <Input
              {...props}
              type="password"
              value={password}
              maxLength={1000}
              autoComplete="new-password"
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </FormField>
        <FormField
          label="From address"
          required
          error={problems?.fromAddress}
          className="sm:col-span-2"
        >
          {(props) => (
            <Input
              {...props}
              type="email"
              value={fromAddress}
              maxLength={254}
              placeholder="office@example.org"
              onChange={(event) => {
                setFromAddress(event.target.value);
                clear('fromAddress');
              }}
            />
          )}
        </FormField>
      </div>
      <FormError>{save.error ? `Could not save: ${errorMessage(save.error)}` : null}</FormError>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="submit"
          busy={save.isPending}
          busyLabel="Saving..."
          onClick={() => save.reset()}
        >
          Save mail server
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={!canTest}
          busy={test.isPending}
          busyLabel="Sending a test e-mail..."
          onClick={() => test.mutate()}
        >
          Send a test e-mail
        </Button>
        {server && (
          <Button
            type="button"
            variant="destructive-outline"
            busy={remove.isPending}
            busyLabel="Removing..."
            onClick={() => remove.mutate()}
          >
            Remove mail server
          </Button>
        )}
        {save.isSuccess && (
          <span role="status" className="text-sm text-green-700">
            Saved.
          </span>
        )}
      </div>
      <TestOutcome result={test.data} />
    </form>
  );
}

/** What the SMTP server answered to the test e-mail, in so many words. */
function TestOutcome({ result }: { result: TestEmailResult | undefined }) {
  if (!result) return null;
  if (result.status === 'sent') {
    return (
      <p role="status" className="text-sm break-words text-green-700">
        The test e-mail was sent to {result.to}. Check that inbox (and its spam folder).
      </p>
    );
  }
  if (result.status === 'waiting') {
    return (
      <p role="status" className="text-sm text-amber-800">
        The mail server has not answered yet. The Outbox shows the test e-mail&rsquo;s outcome.
      </p>
    );
  }
  return (
    <FormError>The test e-mail was not sent. The mail server answered: {result.error}</FormError>
  );
}
