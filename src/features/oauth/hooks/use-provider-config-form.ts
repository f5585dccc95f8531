import { useState, type FormEvent } from 'react';
import { useFormProblems, type FieldProblems } from '../../../components/ui/form-field.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import type { ProviderSettings } from '../api/list-provider-settings.ts';
import { useSaveProviderConfig } from '../api/save-provider-config.ts';
import type { OAuthProvider } from '../providers.ts';

type ProviderConfigField = 'clientId' | 'clientSecret' | 'authorizeUrl' | 'tokenUrl';

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
  const { formRef, problems, report, clear } = useFormProblems<ProviderConfigField>();
  const hasSecret = settings?.has_client_secret === true;
  const changed =
    clientId !== (settings?.client_id ?? '') ||
    clientSecret !== '' ||
    authorizeUrl !== (settings?.authorize_url ?? '') ||
    tokenUrl !== (settings?.token_url ?? '');

  const validate = (): FieldProblems<ProviderConfigField> => {
    const found: FieldProblems<ProviderConfigField> = {};
    if (!clientId.trim()) found.clientId = 'Client ID is required';
    if (!hasSecret && !clientSecret.trim()) found.clientSecret = 'Client secret is required';
    const addresses = `${provider.name} needs your company's authorization and token addresses`;
    if (provider.requiresAddressOverride && !authorizeUrl.trim()) found.authorizeUrl = addresses;
    if (provider.requiresAddressOverride && !tokenUrl.trim()) found.tokenUrl = addresses;
    // Which addresses are allowed is the server's decision: it answers with the reason.
    return found;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (report(validate())) return;
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
    formRef,
    fields: { clientId, clientSecret, authorizeUrl, tokenUrl },
    setClientId: (value: string) => {
      setClientId(value);
      clear('clientId');
    },
    setClientSecret: (value: string) => {
      setClientSecret(value);
      clear('clientSecret');
    },
    setAuthorizeUrl: (value: string) => {
      setAuthorizeUrl(value);
      clear('authorizeUrl');
    },
    setTokenUrl: (value: string) => {
      setTokenUrl(value);
      clear('tokenUrl');
    },
    hasSecret,
    /** Something typed that is not saved yet. */
    changed: changed && !save.isSuccess,
    saving: save.isPending,
    /** What the form found missing, by field. */
    problems,
    /** The server's refusal of what was sent. */
    error: save.isError ? errorMessage(save.error, 'Failed to save settings') : null,
    submit,
  };
}
