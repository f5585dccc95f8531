/**
 * CORS headers for functions called from the browser by supabase-js. On hosted Supabase a
 * function answers the preflight itself:
 *
 *   if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
 *
 * (The embedded backend answers preflights for every API path before the handler runs.)
 */
export const corsHeaders: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
};
