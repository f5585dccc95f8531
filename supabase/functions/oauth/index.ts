/**
 * Entry point on Supabase's Deno edge runtime (`supabase functions deploy oauth`). Set the
 * function's secret first: `supabase secrets set OAUTH_TOKEN_KEY=<32 random bytes, base64url>`;
 * SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
 * The embedded backend imports handler.ts directly instead.
 */
import { createHandler } from './handler.ts';

declare const Deno: {
  serve(handler: (request: Request) => Promise<Response>): unknown;
  env: { toObject(): Record<string, string> };
};

Deno.serve(createHandler(Deno.env.toObject()));
