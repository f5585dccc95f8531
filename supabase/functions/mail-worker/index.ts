/**
 * Entry point on Supabase's Deno edge runtime (`supabase functions deploy mail-worker`; the
 * gateway checks the JWT, and the handler lets only the service role through). Set its secrets
 * first: `supabase secrets set SITE_URL=https://<the app's address>
 * SMTP_URL=smtps://<user>:<password>@<host>:465 SMTP_ADMIN_EMAIL=<sender address>`
 * (optionally SMTP_SENDER_NAME, MAIL_LINK_SECONDS); SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY
 * are provided by the platform. pg_cron calls it (supabase/sql/schedule-mail-worker.sql). The
 * embedded backend imports handler.ts directly instead.
 */
import { createHandler } from './handler.ts';

declare const Deno: {
  serve(handler: (request: Request) => Promise<Response>): unknown;
  env: { toObject(): Record<string, string> };
};

Deno.serve(createHandler(Deno.env.toObject()));
