import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Database } from '../../../lib/database.types.ts';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';

type Tables = Database['public']['Tables'];
export type DocumentRequest = Tables['document_requests']['Row'];
export type RequestRecipient = Tables['document_request_recipients']['Row'];
export type RequestLink = Database['public']['CompositeTypes']['document_request_link'];

/** A request with the people asked, in the order they were added. */
export interface RequestWithRecipients extends DocumentRequest {
  recipients: RequestRecipient[];
}

export interface NewRequest {
  title: string;
  instructions: string;
  category: string;
  tags: string[];
  expiryRequired: boolean;
  /** `yyyy-MM-dd`, or '' for none. */
  dueDate: string;
  askForRenewal: boolean;
  people: { name: string; email: string }[];
}

/** The upload page a request link opens. */
export const requestLinkUrl = (token: string) => `${window.location.origin}/r/${token}`;

export const requestKeys = {
  all: ['document_requests'] as const,
  list: () => ['document_requests', 'list'] as const,
};

/** The organisation's requests, newest first, each with who has and has not sent theirs. */
export async function listRequests(): Promise<RequestWithRecipients[]> {
  const [{ data: requests }, { data: recipients }] = await Promise.all([
    succeeded(
      supabase()
        .from('document_requests')
        .select('*')
        .order('created_at', { ascending: false })
        .limit(200),
      'Failed to load the requests',
    ),
    succeeded(
      supabase()
        .from('document_request_recipients')
        .select('*')
        .order('created_at', { ascending: true })
        .limit(5000),
      'Failed to load the requests',
    ),
  ]);
  return requests.map((request) => ({
    ...request,
    recipients: recipients.filter((recipient) => recipient.request_id === request.id),
  }));
}

export const requestsQueryOptions = () =>
  queryOptions({ queryKey: requestKeys.list(), queryFn: listRequests });

export const useRequests = () => useQuery(requestsQueryOptions());

/** Asks people for a document; returns each person's link (shown once, to hand out). */
export async function createRequest(request: NewRequest): Promise<RequestLink[]> {
  const { data } = await succeeded(
    supabase().rpc('create_document_request', {
      title: request.title,
      instructions: request.instructions,
      category: request.category,
      tags: request.tags,
      expiry_required: request.expiryRequired,
      due_date: (request.dueDate || null) as string,
      ask_for_renewal: request.askForRenewal,
      recipients: request.people.map((person) => ({
        name: person.name,
        email: person.email.trim() || null,
      })),
    }),
    'The request could not be made',
  );
  return data;
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'The request could not be made' },
    mutationFn: createRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestKeys.all }),
  });
}

/** A new link for someone who has not sent theirs (e-mailed again when they have an address). */
export async function resendRequest(recipientId: string): Promise<RequestLink> {
  const { data } = await succeeded(
    supabase().rpc('resend_document_request', { recipient_id: recipientId }).single(),
    'The link could not be sent again',
  );
  return data;
}

export function useResendRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'The link could not be sent again' },
    mutationFn: resendRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestKeys.all }),
  });
}

/** Closes a request: its links stop working. */
export async function closeRequest(requestId: string): Promise<void> {
  await succeeded(
    supabase().rpc('close_document_request', { request_id: requestId }),
    'The request could not be closed',
  );
}

export function useCloseRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'The request could not be closed' },
    mutationFn: closeRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestKeys.all }),
  });
}
