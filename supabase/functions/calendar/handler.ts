/**
 * The `calendar` edge function: a member's secret calendar address,
 * `GET /functions/v1/calendar/{token}.ics`, read by calendar applications without signing in
 * (`verify_jwt = false` in supabase/config.toml). The token is the credential: the function
 * asks the database, with the service-role key, for the feed of that token
 * (`public.calendar_feed`, service role only) and answers the iCalendar text, or 404.
 *
 * An unknown, revoked or malformed token, and the address of a member who is no longer active,
 * all get the same 404 after the same work: every request's token goes to the database, which
 * compares hashes through one index lookup, so how long a refusal takes says nothing about the
 * token.
 *
 * Web-standard code only (fetch, Request, Response): the same module runs on Supabase's Deno
 * edge runtime (index.ts) and inside the embedded backend.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { corsHeaders } from '../_shared/cors.ts';
import type { FunctionEnv, FunctionHandler } from '../_shared/function-env.ts';
import { requireEnv } from '../_shared/function-env.ts';
import { buildFeed, type FeedData } from './feed.ts';

/** A token as `create_calendar_feed` makes them: 64 hexadecimal characters. */
const TOKEN = /^[0-9a-f]{64}$/;
/** Compared instead of a malformed token, so that it takes the path of an unknown one. */
const NO_TOKEN = '0'.repeat(64);

const notFound = () =>
  new Response('Calendar not found\n', {
    status: 404,
    headers: { ...corsHeaders, 'Content-Type': 'text/plain; charset=utf-8' },
  });

/** `/calendar/{token}` or `/calendar/{token}.ics`: the token, or null. */
function tokenOf(request: Request): string | null {
  const match = /^\/calendar\/([^/]+?)(?:\.ics)?$/.exec(new URL(request.url).pathname);
  const token = match?.[1]?.toLowerCase() ?? '';
  return TOKEN.test(token) ? token : null;
}

export function createHandler(env: FunctionEnv): FunctionHandler {
  const supabaseUrl = requireEnv(env, 'SUPABASE_URL').replace(/\/+$/, '');
  const serviceKey = requireEnv(env, 'SUPABASE_SERVICE_ROLE_KEY');
  const appUrl = requireEnv(env, 'SITE_URL').replace(/\/+$/, '');
  const database = new PostgrestClient(`${supabaseUrl}/rest/v1`, {
    headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` },
    timeout: 15_000,
  });

  return async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed\n', {
        status: 405,
        headers: { ...corsHeaders, Allow: 'GET, HEAD, OPTIONS' },
      });
    }
    const token = tokenOf(request);
    const { data, error } = await database.rpc('calendar_feed', { token: token ?? NO_TOKEN });
    if (error) {
      console.error(`calendar: reading a feed failed: ${error.code ?? ''} ${error.message}`);
      return new Response('The calendar is unavailable, please try again later\n', {
        status: 503,
        headers: {
          ...corsHeaders,
          'Content-Type': 'text/plain; charset=utf-8',
          'Retry-After': '60',
        },
      });
    }
    if (token === null || data === null) return notFound();
    const body = buildFeed(data as FeedData, appUrl);
    return new Response(request.method === 'HEAD' ? null : body, {
      headers: {
        ...corsHeaders,
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': 'inline; filename="steward.ics"',
        // The address is a secret: no shared cache may keep what it shows.
        'Cache-Control': 'private, no-store',
        'Referrer-Policy': 'no-referrer',
      },
    });
  };
}
