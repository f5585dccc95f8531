/**
 * Entry point on Supabase's Deno edge runtime (`supabase functions deploy
 * organization-mail-server`). SUPABASE_URL and the keys are provided by the platform;
 * ORGANIZATION_MAIL_KEY (32 random bytes, base64url) and optionally
 * ORGANIZATION_SMTP_ALLOWED_HOSTS are set with `supabase secrets set`. The embedded backend
 * imports handler.ts directly instead.
 */
import { createHandler } from './handler.ts';

declare const Deno: {
  serve(handler: (request: Request) => Promise<Response>): unknown;
  env: { toObject(): Record<string, string> };
};

Deno.serve(createHandler(Deno.env.toObject()));
