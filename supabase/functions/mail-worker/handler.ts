/**
 * The `mail-worker` edge function: on a hosted Supabase project, what the embedded server's
 * scheduler and job runner do for e-mail (server/reminders/, server/mail/). `pg_cron` calls it
 * every few minutes through `pg_net` with the service-role key
 * (supabase/sql/schedule-mail-worker.sql); each call
 *
 * 1. runs the reminder pass: every organisation whose reminder hour has come today and that has
 *    not had today's run (`private.due_reminder_runs`, `private.run_reminders`, the same SQL as
 *    the embedded scheduler: the database claims each organisation's day once, records one
 *    digest per recipient and queues its delivery);
 * 2. delivers due messages of `public.outbox_messages`: claims each `mail.deliver` job with the
 *    job queue's claim (`private.claim_job`: a lease, `skip locked`, so two overlapping calls
 *    never take the same message), writes its parts with the shared composers
 *    (`_shared/mail/`), sends it through SMTP (nodemailer) and records the outcome with the
 *    same SQL as the embedded delivery job (`private.record_mail_outcome`: sent; retried later
 *    with the error shown in the Outbox; failed for good; or kept in the Outbox without SMTP).
 *
 * `POST /functions/v1/mail-worker` with the service-role key answers a summary,
 * `{ reminder_runs, digests, sent, outbox, retried, failed, more }`. Any other caller is refused:
 * no key 401, an anon or user key 403, in the gateway's JSON shape. The body may carry
 * `{ "now": "<ISO time>" }`: the time to run at instead of the database's clock (for tests, and
 * for running a missed day by hand); only the service role gets this far.
 *
 * Web-standard code only: the same module runs on Supabase's Deno edge runtime (index.ts) and
 * inside the embedded backend.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { corsHeaders } from '../_shared/cors.ts';
import type { FunctionEnv, FunctionHandler } from '../_shared/function-env.ts';
import { requireEnv } from '../_shared/function-env.ts';
import { composeMessage, type ComposedMessage } from '../_shared/mail/compose.ts';
import type { MailLink, StoredMessage } from '../_shared/mail/message.ts';
import { headersOf, mailRetryDelaySeconds, messageIdOf } from '../_shared/mail/message.ts';
import type { MailTransport, OutgoingMail } from '../_shared/mail/smtp.ts';
import { PermanentMailError, smtpTransport } from '../_shared/mail/smtp.ts';

/** What one claim answers (`public.mail_worker_claim`). */
interface ClaimedDelivery {
  job_id: number;
  attempt: number;
  max_attempts: number;
  message: StoredMessage;
}

type Outcome = 'sent' | 'outbox' | 'retried' | 'failed';

interface Summary {
  reminder_runs: number;
  digests: number;
  sent: number;
  outbox: number;
  retried: number;
  failed: number;
  /** True when the call stopped at its time budget with work left: the next call goes on. */
  more: boolean;
}

/** A claim lasts longer than a call may run (150 s on Supabase): a killed call's work returns. */
const LEASE_SECONDS = 180;
/** Work is started only this long into a call, leaving time to finish the last message. */
const BUDGET_MS = 100_000;
const MAX_BODY_BYTES = 4096;

const json = (status: number, body: unknown) =>
  Response.json(body, { status, headers: corsHeaders });

/** Compares two secrets in time that does not depend on where they differ. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (value: string) =>
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** The time the caller asked to run at, null for the database's clock; a string on error. */
async function requestedTime(request: Request): Promise<{ now: string | null } | string> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return 'Request body is too large';
  if (text.trim() === '') return { now: null };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'Request body must be JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return 'Request body must be a JSON object';
  }
  const now = (body as { now?: unknown }).now;
  if (now === undefined || now === null) return { now: null };
  if (typeof now !== 'string' || Number.isNaN(Date.parse(now))) {
    return 'now must be an ISO 8601 time';
  }
  return { now: new Date(now).toISOString() };
}

/** Bytes as base64, in slices (String.fromCharCode takes a limited number of arguments). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** A Storage object path as a URL path: each segment encoded. */
const objectPath = (name: string) => name.split('/').map(encodeURIComponent).join('/');

export function createHandler(env: FunctionEnv): FunctionHandler {
  const supabaseUrl = requireEnv(env, 'SUPABASE_URL').replace(/\/+$/, '');
  const serviceKey = requireEnv(env, 'SUPABASE_SERVICE_ROLE_KEY');
  const appUrl = requireEnv(env, 'SITE_URL').replace(/\/+$/, '');
  const smtpUrl = env.SMTP_URL || null;
  const sender = {
    address: smtpUrl ? requireEnv(env, 'SMTP_ADMIN_EMAIL') : env.SMTP_ADMIN_EMAIL || '',
    name: env.SMTP_SENDER_NAME || 'Steward',
  };
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new Error('SMTP_URL must start with smtp:// or smtps://');
  }
  // How long the signed links of documents sent "as links" stay valid (default: 7 days).
  const linkSeconds = Number(env.MAIL_LINK_SECONDS || 7 * 86_400);
  if (!Number.isInteger(linkSeconds) || linkSeconds < 60) {
    throw new Error('MAIL_LINK_SECONDS must be a whole number of seconds, at least 60');
  }
  const transport: MailTransport | null = smtpUrl ? smtpTransport({ url: smtpUrl }, sender) : null;
  const serviceHeaders = { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` };
  const database = new PostgrestClient(`${supabaseUrl}/rest/v1`, {
    headers: serviceHeaders,
    timeout: 30_000,
  });
  const runner = `mail-worker-${crypto.randomUUID()}`;

  /** Calls a step of the migration; an error of the database or the network throws. */
  async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const { data, error } = await database.rpc(name, args);
    if (error) throw new Error(`${name}: ${error.code ?? ''} ${error.message}`);
    return data as T;
  }

  /** Signed Storage links to the documents of a message sent "as links", by file path. */
  async function signLinks(message: StoredMessage): Promise<Map<string, MailLink>> {
    const links = new Map<string, MailLink>();
    if (message.kind !== 'documents' || message.content.as_links !== true) return links;
    for (const attachment of message.attachments) {
      const response = await fetch(
        `${supabaseUrl}/storage/v1/object/sign/documents/${objectPath(attachment.file_path)}`,
        {
          method: 'POST',
          headers: { ...serviceHeaders, 'Content-Type': 'application/json' },
          body: JSON.stringify({ expiresIn: linkSeconds }),
        },
      );
      if (response.status === 400 || response.status === 404) {
        await response.body?.cancel();
        throw new PermanentMailError(`${attachment.name} is no longer stored`);
      }
      if (!response.ok) throw new Error(`Storage answered ${response.status} signing a link`);
      const { signedURL } = (await response.json()) as { signedURL: string };
      links.set(attachment.file_path, {
        label: attachment.name,
        url: `${supabaseUrl}/storage/v1${signedURL}`,
        expires_at: new Date(Date.now() + linkSeconds * 1000).toISOString(),
      });
    }
    return links;
  }

  /** The files a message carries as attachments, read from Storage. */
  async function attachmentsOf(message: StoredMessage): Promise<OutgoingMail['attachments']> {
    if (message.kind !== 'documents' || message.content.as_links === true) return [];
    const attachments: OutgoingMail['attachments'] = [];
    for (const attachment of message.attachments) {
      const response = await fetch(
        `${supabaseUrl}/storage/v1/object/documents/${objectPath(attachment.file_path)}`,
        { headers: serviceHeaders },
      );
      if (response.status === 400 || response.status === 404) {
        await response.body?.cancel();
        throw new PermanentMailError(`${attachment.name} is no longer stored`);
      }
      if (!response.ok) throw new Error(`Storage answered ${response.status} reading a file`);
      const type = response.headers.get('Content-Type');
      attachments.push({
        filename: attachment.name,
        base64: base64Of(new Uint8Array(await response.arrayBuffer())),
        ...(type ? { contentType: type } : {}),
      });
    }
    return attachments;
  }

  /** Delivers one claimed message and records how it went. */
  async function deliver(claimed: ClaimedDelivery, now: string | null): Promise<Outcome> {
    const { message } = claimed;
    const record = (
      outcome: 'sent' | 'outbox' | 'retry' | 'failed',
      details: { error?: string; parts?: ComposedMessage | null } = {},
    ) =>
      rpc<boolean>('mail_worker_record', {
        job_id: claimed.job_id,
        runner,
        outcome,
        error: details.error ?? null,
        text_body: details.parts?.text ?? null,
        html_body: details.parts?.html ?? null,
        links: details.parts?.links ?? null,
        retry_seconds: mailRetryDelaySeconds(claimed.attempt),
        now_at: now,
      });

    let parts: ComposedMessage | null = null;
    let text = message.text_body;
    let html = message.html_body;
    try {
      if (text === null || html === null) {
        const links = await signLinks(message);
        parts = composeMessage(message, {
          appUrl,
          signLink(filePath) {
            const link = links.get(filePath);
            if (!link) throw new Error(`no signed link for ${filePath}`);
            return link;
          },
        });
        ({ text, html } = parts);
      }
      if (message.status === 'outbox' || !transport) {
        await record('outbox', { parts });
        return 'outbox';
      }
      const headers = headersOf(message);
      await transport.send({
        messageId: messageIdOf(message, sender.address),
        to: message.recipients,
        subject: message.subject,
        text,
        html,
        attachments: await attachmentsOf(message),
        ...(headers ? { headers } : {}),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof PermanentMailError) {
        await record('failed', { error: reason, parts });
        return 'failed';
      }
      console.error(`mail-worker: message ${message.id}, attempt ${claimed.attempt}: ${reason}`);
      await record('retry', { error: reason, parts });
      return claimed.attempt >= claimed.max_attempts ? 'failed' : 'retried';
    }
    await record('sent', { parts });
    return 'sent';
  }

  async function run(now: string | null): Promise<Summary> {
    const deadline = Date.now() + BUDGET_MS;
    const summary: Summary = {
      reminder_runs: 0,
      digests: 0,
      sent: 0,
      outbox: 0,
      retried: 0,
      failed: 0,
      more: false,
    };
    const due = await rpc<{ organization_id: string; local_date: string }[]>(
      'mail_worker_due_reminder_runs',
      { now_at: now },
    );
    for (const organisation of due) {
      if (Date.now() > deadline) {
        summary.more = true;
        return summary;
      }
      // One organisation per call: its run commits alone, and a second caller finds it claimed.
      summary.digests += await rpc<number>('mail_worker_run_reminders', {
        organization_id: organisation.organization_id,
        local_date: organisation.local_date,
      });
      summary.reminder_runs += 1;
    }
    for (;;) {
      if (Date.now() > deadline) {
        summary.more = true;
        break;
      }
      const claimed = await rpc<ClaimedDelivery | null>('mail_worker_claim', {
        runner,
        lease_seconds: LEASE_SECONDS,
        now_at: now,
      });
      if (!claimed) break;
      const outcome = await deliver(claimed, now);
      summary[outcome] += 1;
    }
    return summary;
  }

  return async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    const authorization = request.headers.get('Authorization');
    if (!authorization) return json(401, { code: 401, message: 'Missing authorization header' });
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] ?? '';
    if (!(await sameSecret(bearer, serviceKey))) {
      return json(403, { code: 403, message: 'Only the service role may run the mail worker' });
    }
    if (request.method !== 'POST') {
      return new Response('Method not allowed\n', {
        status: 405,
        headers: { ...corsHeaders, Allow: 'POST, OPTIONS' },
      });
    }
    const time = await requestedTime(request);
    if (typeof time === 'string') return json(400, { error: time });
    try {
      return json(200, await run(time.now));
    } catch (error) {
      // The database or Storage could not be reached: nothing is lost, the next call goes on.
      console.error('mail-worker: the run stopped:', error);
      return json(503, {
        error: 'The mail worker could not finish, it will go on at its next run',
      });
    }
  };
}
