import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invokeOAuth } from './oauth-function.ts';
import { oauthKeys } from './query-keys.ts';

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

/**
 * Saving a provider's settings; the organisation's settings are read again. A refusal is about
 * what was typed (an address not allowed): the form shows it above its fields.
 */
export function useSaveProviderConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProviderConfig,
    meta: { errorShownInPlace: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oauthKeys.providerSettings }),
  });
}
