import { FunctionsHttpError } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { mailDeliveryQueryOptions } from '../../../lib/mail-delivery.ts';
import { supabase } from '../../../lib/supabase.ts';
import { settingsKeys } from './query-keys.ts';

/** The organisation's own SMTP server as the app may know it: never the password. */
export interface MailServer {
  host: string;
  port: number;
  username: string | null;
  has_password: boolean;
  from_address: string;
}

export interface MailServerChange {
  host: string;
  port: number;
  username: string;
  /** Empty: keep the saved password. */
  password: string;
  fromAddress: string;
}

/** The outcome of a test e-mail: what the SMTP server answered to its one attempt. */
export type TestEmailResult =
  { status: 'sent'; to: string } | { status: 'failed'; error: string } | { status: 'waiting' };

export async function getMailServer(): Promise<MailServer | null> {
  const { data } = await succeeded(
    supabase()
      .from('organization_mail_servers')
      .select('host, port, username, has_password, from_address')
      .maybeSingle(),
  );
  return data ? { ...data, has_password: data.has_password === true } : null;
}

/**
 * Saves the server through the `organization-mail-server` edge function, which checks where it
 * is and encrypts the password before anything is stored.
 */
export async function saveMailServer(change: MailServerChange): Promise<MailServer> {
  const { data, error } = await supabase().functions.invoke<MailServer>(
    'organization-mail-server',
    { body: change },
  );
  if (error instanceof FunctionsHttpError) {
    // The function's own words ({ error }), not "non-2xx status code".
    const body = (await error.context.json().catch(() => null)) as { error?: unknown } | null;
    throw new Error(typeof body?.error === 'string' ? body.error : error.message);
  }
  if (error) throw error;
  if (!data) throw new Error('The settings could not be saved');
  return data;
}

export async function removeMailServer(): Promise<void> {
  await succeeded(supabase().rpc('remove_organization_mail_server'));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a test e-mail to the signed-in admin and waits for its one delivery attempt (up to a
 * minute: the server's own connection and greeting timeouts are shorter), so that the admin
 * reads what the SMTP server answered, never "sent" for a message that was not.
 */
export async function sendTestEmail(): Promise<TestEmailResult> {
  const { data: id } = await succeeded(supabase().rpc('send_test_email'));
  for (let waited = 0; waited < 60_000; waited += 1_000) {
    await wait(1_000);
    const { data } = await succeeded(
      supabase()
        .from('outbox_messages')
        .select('status, last_error, recipients')
        .eq('id', id)
        .single(),
    );
    if (data.status === 'sent') return { status: 'sent', to: data.recipients.join(', ') };
    if (data.status === 'failed' || data.status === 'outbox') {
      return { status: 'failed', error: data.last_error ?? 'E-mail is not set up' };
    }
  }
  return { status: 'waiting' };
}

/** What changes when the organisation's sender does: whether its mail is sent at all. */
function useInvalidateSender() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsKeys.mailServer }),
      queryClient.invalidateQueries({ queryKey: mailDeliveryQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: ['organization_onboarding'] }),
    ]);
}

export const useMailServer = () =>
  useQuery({ queryKey: settingsKeys.mailServer, queryFn: getMailServer });

export function useSaveMailServer() {
  const invalidate = useInvalidateSender();
  return useMutation({
    mutationFn: saveMailServer,
    // The refusal (a private address, a port) is shown beside the form, where it is fixed.
    onSuccess: invalidate,
  });
}

export function useRemoveMailServer() {
  const invalidate = useInvalidateSender();
  return useMutation({
    mutationFn: removeMailServer,
    meta: { errorMessage: 'Failed to remove the mail server' },
    onSuccess: invalidate,
  });
}

export const useSendTestEmail = () =>
  useMutation({
    mutationFn: sendTestEmail,
    meta: { errorMessage: 'Failed to send a test e-mail' },
  });
