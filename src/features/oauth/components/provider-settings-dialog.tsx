import { useId } from 'react';
import { Modal } from '../../../components/modal.tsx';
import type { ProviderSettings } from '../api/provider-settings.ts';
import { useProviderConfigForm } from '../hooks/use-provider-config-form.ts';
import { redirectUriFor, type OAuthProvider } from '../providers.ts';

export interface ProviderSettingsDialogProps {
  provider: OAuthProvider;
  settings: ProviderSettings | undefined;
  onClose: () => void;
  onSaved: () => void;
}

const inputClass =
  'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none';

/**
 * A master admin's settings for one provider. The client secret is write-only: the dialog
 * says whether one is set and never shows it.
 */
export function ProviderSettingsDialog({
  provider,
  settings,
  onClose,
  onSaved,
}: ProviderSettingsDialogProps) {
  const form = useProviderConfigForm(provider, settings, onSaved);
  const ids = {
    clientId: useId(),
    secret: useId(),
    secretHint: useId(),
    authorize: useId(),
    token: useId(),
    redirect: useId(),
  };
  const redirectUri = redirectUriFor(window.location.origin, provider.id);

  return (
    <Modal title={`${provider.name} settings`} onClose={onClose} dismissible={!form.saving}>
      <form onSubmit={form.submit} noValidate className="space-y-4">
        {form.error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
            {form.error}
          </p>
        )}
        <div>
          <label htmlFor={ids.clientId} className="block text-sm font-medium text-gray-700">
            Client ID
          </label>
          <input
            id={ids.clientId}
            value={form.fields.clientId}
            onChange={(event) => form.setClientId(event.target.value)}
            required
            autoComplete="off"
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor={ids.secret} className="block text-sm font-medium text-gray-700">
            Client secret
          </label>
          <input
            id={ids.secret}
            type="password"
            value={form.fields.clientSecret}
            onChange={(event) => form.setClientSecret(event.target.value)}
            required={!form.hasSecret}
            autoComplete="new-password"
            aria-describedby={ids.secretHint}
            placeholder={form.hasSecret ? 'Leave blank to keep the saved secret' : ''}
            className={inputClass}
          />
          <p id={ids.secretHint} className="mt-1 text-xs text-gray-500">
            {form.hasSecret
              ? 'Set. For your security it is never shown again; enter a new one to replace it.'
              : 'Not set.'}
          </p>
        </div>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-gray-700">
            Addresses {provider.requiresAddressOverride ? '' : '(optional)'}
          </legend>
          <p className="text-xs text-gray-500">
            {provider.requiresAddressOverride
              ? `Enter the addresses of your company's ${provider.name} site.`
              : 'Only needed for a company-specific or self-hosted service. Leave blank to use the standard addresses.'}
          </p>
          <div>
            <label htmlFor={ids.authorize} className="block text-sm text-gray-700">
              Authorization URL
            </label>
            <input
              id={ids.authorize}
              type="url"
              value={form.fields.authorizeUrl}
              onChange={(event) => form.setAuthorizeUrl(event.target.value)}
              placeholder={provider.authorizeUrl}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor={ids.token} className="block text-sm text-gray-700">
              Token URL
            </label>
            <input
              id={ids.token}
              type="url"
              value={form.fields.tokenUrl}
              onChange={(event) => form.setTokenUrl(event.target.value)}
              placeholder={provider.tokenUrl}
              className={inputClass}
            />
          </div>
        </fieldset>
        <div>
          <label htmlFor={ids.redirect} className="block text-sm font-medium text-gray-700">
            Redirect URL
          </label>
          <input
            id={ids.redirect}
            readOnly
            value={redirectUri}
            className={`${inputClass} bg-gray-50 font-mono text-xs`}
          />
          <p className="mt-1 text-xs text-gray-500">
            Register this address with {provider.name} when you create the app.
          </p>
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <button
            type="button"
            onClick={onClose}
            disabled={form.saving}
            className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={form.saving}
            className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50"
          >
            {form.saving ? 'Saving...' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
