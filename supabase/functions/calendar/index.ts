/**
 * Entry point on Supabase's Deno edge runtime (`supabase functions deploy calendar
 * --no-verify-jwt`; config.toml's `[functions.calendar] verify_jwt = false` says the same). Set
 * its secret first: `supabase secrets set SITE_URL=https://<the app's address>`; SUPABASE_URL
 * and SUPABASE_SERVICE_ROLE_KEY are provided by the platform. The embedded backend imports
 * handler.ts directly instead.
 */
import { createHandler } from './handler.ts';

declare const Deno: {
  serve(handler: (request: Request) => Promise<Response>): unknown;
  env: { toObject(): Record<string, string> };
};

Deno.serve(createHandler(Deno.env.toObject()));
