import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from '../../../lib/supabase.ts';

/** The `oauth` edge function refused a request; `message` is its `{ error }` text. */
export class OAuthFunctionError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Calls the `oauth` edge function (supabase/functions/oauth/handler.ts) with the signed-in
 * user's session. A refusal becomes an `OAuthFunctionError` carrying the function's own text;
 * a network failure is rethrown as it is.
 */
export async function invokeOAuth<T>(body: Record<string, unknown>): Promise<T> {
  const { data, error } = await supabase().functions.invoke<T>('oauth', { body });
  if (!error) return data as T;
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    let message: string = error.message;
    try {
      const parsed = (await response.json()) as { error?: unknown };
      if (typeof parsed.error === 'string' && parsed.error) message = parsed.error;
    } catch {
      // Not JSON (a proxy's error page): keep supabase-js's message.
    }
    throw new OAuthFunctionError(message, response.status);
  }
  throw error;
}
