/** Where the one shared client connects to. */
export interface SupabaseSettings {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

export class BackendUnreachableError extends Error {}

function isSettings(value: unknown): value is SupabaseSettings {
  const v = value as Partial<SupabaseSettings> | null;
  return (
    typeof v?.supabaseUrl === 'string' &&
    /^https?:\/\//.test(v.supabaseUrl) &&
    typeof v.supabaseAnonKey === 'string' &&
    v.supabaseAnonKey.length > 0
  );
}

/**
 * Build-time `VITE_SUPABASE_URL` / `VITE_SUPABASE_ANON_KEY` (hosted mode) win; otherwise the
 * embedded backend tells us at `GET /config.json`, so one build runs on any host.
 */
export async function loadSupabaseSettings(
  env: Record<string, string | undefined> = import.meta.env,
  fetchFn: typeof fetch = fetch,
): Promise<SupabaseSettings> {
  const fromBuild = {
    supabaseUrl: env.VITE_SUPABASE_URL,
    supabaseAnonKey: env.VITE_SUPABASE_ANON_KEY,
  };
  if (isSettings(fromBuild)) return fromBuild;
  let response: Response;
  try {
    response = await fetchFn('/config.json', { headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new BackendUnreachableError(`The server could not be reached (${String(error)}).`);
  }
  if (!response.ok) {
    throw new BackendUnreachableError(`The server answered ${response.status} for /config.json.`);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!isSettings(body)) {
    throw new BackendUnreachableError('The server sent no usable configuration.');
  }
  return body;
}
