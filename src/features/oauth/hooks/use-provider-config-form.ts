import { useState, type FormEvent } from 'react';
import { saveProviderConfig } from '../api/provider-settings.ts';
import type { ProviderSettings } from '../api/provider-settings.ts';
import { errorText } from '../lib/format.ts';
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
  const [clientId, setClientId] = useState(settings?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [authorizeUrl, setAuthorizeUrl] = useState(settings?.authorize_url ?? '');
  const [tokenUrl, setTokenUrl] = useState(settings?.token_url ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hasSecret = settings?.has_client_secret === true;

  const validate = (): string | null => {
    if (!clientId.trim()) return 'Client ID is required';
    if (!hasSecret && !clientSecret.trim()) return 'Client secret is required';
    if (provider.requiresAddressOverride && (!authorizeUrl.trim() || !tokenUrl.trim())) {
      return `${provider.name} needs your company's authorization and token addresses`;
    }
    // Which addresses are allowed is the server's decision: it answers with the reason.
    return null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validate();
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await saveProviderConfig({
        providerId: provider.id,
        clientId: clientId.trim(),
        clientSecret: clientSecret.trim() || null,
        authorizeUrl: authorizeUrl.trim() || null,
        tokenUrl: tokenUrl.trim() || null,
      });
      setClientSecret('');
      onSaved();
    } catch (caught) {
      setError(errorText(caught, 'Failed to save settings'));
    } finally {
      setSaving(false);
    }
  };

  return {
    fields: { clientId, clientSecret, authorizeUrl, tokenUrl },
    setClientId,
    setClientSecret,
    setAuthorizeUrl,
    setTokenUrl,
    hasSecret,
    saving,
    error,
    submit,
  };
}
