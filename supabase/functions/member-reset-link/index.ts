/**
 * Entry point on Supabase's Deno edge runtime (`supabase functions deploy member-reset-link`).
 * SUPABASE_URL and the keys are provided by the platform; SITE_URL (the app's address) is set
 * with `supabase secrets set`. The embedded backend imports handler.ts directly instead.
 */
import { createHandler } from './handler.ts';

declare const Deno: {
  serve(handler: (request: Request) => Promise<Response>): unknown;
  env: { toObject(): Record<string, string> };
};

Deno.serve(createHandler(Deno.env.toObject()));
