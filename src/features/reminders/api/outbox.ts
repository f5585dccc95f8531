import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { reminderKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

export type OutboxMessage = Pick<
  Tables<'outbox_messages'>,
  | 'id'
  | 'kind'
  | 'recipients'
  | 'subject'
  | 'text_body'
  | 'status'
  | 'attempts'
  | 'last_error'
  | 'created_at'
  | 'sent_at'
>;

/** The organisation's 200 newest messages (admins; row-level security decides). */
export async function listOutbox(): Promise<OutboxMessage[]> {
  const { data } = await succeeded(
    supabase()
      .from('outbox_messages')
      .select(
        'id, kind, recipients, subject, text_body, status, attempts, last_error, created_at, sent_at',
      )
      .order('created_at', { ascending: false })
      .limit(200),
    'Failed to load the outbox',
  );
  return data;
}

export const outboxQueryOptions = () =>
  queryOptions({
    queryKey: reminderKeys.outbox(),
    queryFn: listOutbox,
    // While a message is being written or sent, look again now and then.
    refetchInterval: (query) =>
      query.state.data?.some((message) => message.status === 'queued' || !message.text_body)
        ? 3000
        : false,
  });

export const useOutbox = () => useQuery(outboxQueryOptions());

/** Sends a failed message again (admins, with SMTP configured). */
export async function retryOutboxMessage(id: string): Promise<void> {
  await succeeded(
    supabase().rpc('retry_outbox_message', { message_id: id }),
    'Failed to send the message again',
  );
}

export function useRetryOutboxMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryOutboxMessage,
    meta: { errorMessage: 'Failed to send the message again' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reminderKeys.outbox() }),
  });
}
