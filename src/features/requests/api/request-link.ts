import { useMutation, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';

/** What a request link's page shows, as `GET /requests/v1/{token}` answers. */
export interface RequestPage {
  organization_name: string;
  requested_by: string | null;
  title: string;
  instructions: string | null;
  expiry_required: boolean;
  due_date: string | null;
  recipient_name: string;
  recipient_email: string | null;
  renews_document_name: string | null;
  renews_expiry_date: string | null;
  link_expires_at: string;
  max_file_bytes: number;
}

export interface Submission {
  name: string;
  email: string;
  /** `yyyy-MM-dd` or ''. */
  expiryDate: string;
  file: File;
}

export const LINK_GONE = 'This link no longer works. Please ask whoever sent it for a new one.';

function requestApi(token: string): string {
  const base = (supabase() as unknown as { supabaseUrl: string }).supabaseUrl;
  return `${String(base).replace(/\/+$/, '')}/requests/v1/${encodeURIComponent(token)}`;
}

async function answerOf<T>(response: Response, fallback: string): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new Error(body.message || fallback);
  return body as T;
}

export const useRequestPage = (token: string) =>
  useQuery({
    queryKey: ['document_requests', 'link', token] as const,
    queryFn: async () => answerOf<RequestPage>(await fetch(requestApi(token)), LINK_GONE),
    refetchOnWindowFocus: false,
  });

/** Sends the document: the fields first, then the file, as the server reads them. */
export async function sendRequestedDocument(
  token: string,
  submission: Submission,
): Promise<{ document_name: string }> {
  const form = new FormData();
  form.append('submitter_name', submission.name);
  form.append('submitter_email', submission.email);
  form.append('expiry_date', submission.expiryDate);
  form.append('file_name', submission.file.name);
  form.append('file', submission.file, submission.file.name);
  return answerOf(
    await fetch(requestApi(token), { method: 'POST', body: form }),
    'The document could not be sent',
  );
}

export const useSendRequestedDocument = (token: string) =>
  useMutation({
    // The upload form shows the refusal above its button.
    meta: { errorShownInPlace: true },
    mutationFn: (submission: Submission) => sendRequestedDocument(token, submission),
  });
