import { supabase } from '../../../lib/supabase.ts';
import { invokeOAuth } from './oauth-function.ts';

/** What the browser may know of a provider's configuration: never the client secret itself. */
export interface ProviderSettings {
  provider_id: string;
  client_id: string;
  /** Whether a secret is stored; the secret itself is write-only. */
  has_client_secret: boolean;
  authorize_url: string | null;
  token_url: string | null;
}

/** The organisation's provider configurations (view `oauth_provider_settings`). */
export async function listProviderSettings(): Promise<ProviderSettings[]> {
  const { data, error } = await supabase()
    .from('oauth_provider_settings')
    .select('provider_id, client_id, has_client_secret, authorize_url, token_url');
  if (error) throw new Error(error.message);
  return data.map((row) => ({
    provider_id: row.provider_id ?? '',
    client_id: row.client_id ?? '',
    has_client_secret: row.has_client_secret === true,
    authorize_url: row.authorize_url,
    token_url: row.token_url,
  }));
}

export interface ProviderConfigInput {
  providerId: string;
  clientId: string;
  /** Null keeps the stored secret: the secret is write-only. */
  clientSecret: string | null;
  authorizeUrl: string | null;
  tokenUrl: string | null;
}

/**
 * Saves a provider's client and addresses (master admins) through the `oauth` function, which
 * knows the catalogue and the hosts the installation allows and refuses any other address
 * before it is stored; its refusal is the error's message.
 */
export async function saveProviderConfig(input: ProviderConfigInput): Promise<void> {
  await invokeOAuth({ action: 'configure', ...input });
}
