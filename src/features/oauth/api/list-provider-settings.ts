import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { oauthKeys } from './query-keys.ts';

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
  if (error) {
    console.error('Failed to load provider settings', error);
    throw new Error(error.message);
  }
  return data.map((row) => ({
    provider_id: row.provider_id ?? '',
    client_id: row.client_id ?? '',
    has_client_secret: row.has_client_secret === true,
    authorize_url: row.authorize_url,
    token_url: row.token_url,
  }));
}

export const providerSettingsQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: oauthKeys.organizationProviderSettings(organizationId),
    queryFn: listProviderSettings,
  });

/** The organisation's provider configurations; nothing is asked without an organisation. */
export const useProviderSettings = (organizationId: string | null) =>
  useQuery({
    ...providerSettingsQueryOptions(organizationId ?? ''),
    enabled: organizationId !== null,
  });
