import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import type { ProviderSettings } from '../api/list-provider-settings.ts';
import { useProviderConfigForm } from '../hooks/use-provider-config-form.ts';
import { redirectUriFor, type OAuthProvider } from '../providers.ts';

export const UNSAVED_SETTINGS_QUESTION =
  'You have changed these settings without saving them. Leave without saving?';

export interface ProviderSettingsDialogProps {
  provider: OAuthProvider;
  settings: ProviderSettings | undefined;
  onClose: () => void;
  onSaved: () => void;
}

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
  useLeaveGuard(form.changed, UNSAVED_SETTINGS_QUESTION);
  const redirectUri = redirectUriFor(window.location.origin, provider.id);

  return (
    <Modal title={`${provider.name} settings`} onClose={onClose} dismissible={!form.saving}>
      <form ref={form.formRef} onSubmit={form.submit} noValidate className="space-y-4">
        <FormError>{form.error}</FormError>
        <FormField label="Client ID" error={form.problems?.clientId}>
          {(field) => (
            <Input
              {...field}
              value={form.fields.clientId}
              onChange={(event) => form.setClientId(event.target.value)}
              required
              autoComplete="off"
            />
          )}
        </FormField>
        <FormField
          label="Client secret"
          error={form.problems?.clientSecret}
          hint={
            form.hasSecret
              ? 'Set. For your security it is never shown again; enter a new one to replace it.'
              : 'Not set.'
          }
        >
          {(field) => (
            <Input
              {...field}
              type="password"
              value={form.fields.clientSecret}
              onChange={(event) => form.setClientSecret(event.target.value)}
              required={!form.hasSecret}
              autoComplete="new-password"
              placeholder={form.hasSecret ? 'Leave blank to keep the saved secret' : ''}
            />
          )}
        </FormField>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-gray-700">
            Addresses {provider.requiresAddressOverride ? '' : '(optional)'}
          </legend>
          <p className="text-xs text-gray-500">
            {provider.requiresAddressOverride
              ? `Enter the addresses of your company's ${provider.name} site.`
              : 'Only needed for a company-specific or self-hosted service. Leave blank to use the standard addresses.'}
          </p>
          <FormField label="Authorization URL" error={form.problems?.authorizeUrl}>
            {(field) => (
              <Input
                {...field}
                type="url"
                value={form.fields.authorizeUrl}
                onChange={(event) => form.setAuthorizeUrl(event.target.value)}
                placeholder={provider.authorizeUrl}
              />
            )}
          </FormField>
          <FormField label="Token URL" error={form.problems?.tokenUrl}>
            {(field) => (
              <Input
                {...field}
                type="url"
                value={form.fields.tokenUrl}
                onChange={(event) => form.setTokenUrl(event.target.value)}
                placeholder={provider.tokenUrl}
              />
            )}
          </FormField>
        </fieldset>
        <FormField
          label="Redirect URL"
          hint={`Register this address with ${provider.name} when you create the app.`}
        >
          {(field) => (
            <Input
              {...field}
              readOnly
              value={redirectUri}
              className="bg-gray-50 font-mono text-xs"
            />
          )}
        </FormField>
        <DialogActions className="pt-2">
          <Button variant="secondary" onClick={onClose} disabled={form.saving}>
            Cancel
          </Button>
          <Button type="submit" busy={form.saving} busyLabel="Saving...">
            Save
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
