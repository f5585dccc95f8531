import { queryOptions, useQuery } from '@tanstack/react-query';
import { succeeded } from './errors.ts';
import { supabase } from './supabase.ts';

/** `smtp` when this installation sends e-mail, `outbox` when it keeps it in the Outbox. */
export type MailDelivery = 'smtp' | 'outbox';

/**
 * Whether e-mail leaves this installation, so that no screen says "sent" for a message that
 * stays in the Outbox. Anyone may ask (the forgot-password page asks before a sign-in).
 */
export async function getMailDelivery(): Promise<MailDelivery> {
  const { data } = await succeeded(supabase().rpc('mail_delivery'));
  return data === 'smtp' ? 'smtp' : 'outbox';
}

export const mailDeliveryQueryOptions = () =>
  queryOptions({
    queryKey: ['mail_settings', 'delivery'],
    queryFn: getMailDelivery,
    // It changes only when the server is configured anew.
    staleTime: 5 * 60_000,
  });

export const useMailDelivery = () => useQuery(mailDeliveryQueryOptions());

/** What a screen says instead of "sent" while e-mail is kept in the Outbox. */
export const EMAIL_NOT_SET_UP =
  'E-mail is not set up on this installation: messages are kept in the Outbox and not sent. An administrator can set up SMTP (see Settings).';
