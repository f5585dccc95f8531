/**
 * Entry point on Supabase's Deno edge runtime (`supabase functions deploy documents-zip`).
 * SUPABASE_URL and SUPABASE_ANON_KEY are provided by the platform; the function needs no
 * secret of its own. The embedded backend imports handler.ts directly instead.
 */
import { createHandler } from './handler.ts';

declare const Deno: {
  serve(handler: (request: Request) => Promise<Response>): unknown;
  env: { toObject(): Record<string, string> };
};

Deno.serve(createHandler(Deno.env.toObject()));
