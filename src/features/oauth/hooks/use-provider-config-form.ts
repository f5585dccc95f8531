import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import type { ProviderSettings } from '../api/list-provider-settings.ts';
import { useSaveProviderConfig } from '../api/save-provider-config.ts';
import type { OAuthProvider } from '../providers.ts';

/**
 * The provider settings form of a master admin: client id, a write-only client secret (blank
 * keeps the stored one) and optional address overrides, which the `oauth` function accepts
 * only on the provider's own hosts or hosts the installation allows.
 */
export function useProviderConfigForm(
  provider: OAuthProvider,
  settings: ProviderSettings | undefined,
  onSaved: () => void,
) {
  const save = useSaveProviderConfig();
  const [clientId, setClientId] = useState(settings?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [authorizeUrl, setAuthorizeUrl] = useState(settings?.authorize_url ?? '');
  const [tokenUrl, setTokenUrl] = useState(settings?.token_url ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const hasSecret = settings?.has_client_secret === true;
  const changed =
    clientId !== (settings?.client_id ?? '') ||
    clientSecret !== '' ||
    authorizeUrl !== (settings?.authorize_url ?? '') ||
    tokenUrl !== (settings?.token_url ?? '');

  const validate = (): string | null => {
    if (!clientId.trim()) return 'Client ID is required';
    if (!hasSecret && !clientSecret.trim()) return 'Client secret is required';
    if (provider.requiresAddressOverride && (!authorizeUrl.trim() || !tokenUrl.trim())) {
      return `${provider.name} needs your company's authorization and token addresses`;
    }
    // Which addresses are allowed is the server's decision: it answers with the reason.
    return null;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setProblem(found);
    if (found) return;
    save.mutate(
      {
        providerId: provider.id,
        clientId: clientId.trim(),
        clientSecret: clientSecret.trim() || null,
        authorizeUrl: authorizeUrl.trim() || null,
        tokenUrl: tokenUrl.trim() || null,
      },
      {
        onSuccess: () => {
          setClientSecret('');
          onSaved();
        },
      },
    );
  };

  return {
    fields: { clientId, clientSecret, authorizeUrl, tokenUrl },
    setClientId,
    setClientSecret,
    setAuthorizeUrl,
    setTokenUrl,
    hasSecret,
    /** Something typed that is not saved yet. */
    changed: changed && !save.isSuccess,
    saving: save.isPending,
    error: problem ?? (save.isError ? errorMessage(save.error, 'Failed to save settings') : null),
    submit,
  };
}
