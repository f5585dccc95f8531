import { useMemo, useState } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { paths } from '../../config/paths.ts';
import { errorMessage } from '../../lib/errors.ts';
import { isMasterAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { useProviderSettings } from './api/list-provider-settings.ts';
import { OAuthSecurityNote } from './components/oauth-security-note.tsx';
import { ProviderCard } from './components/provider-card.tsx';
import { ProviderSettingsDialog } from './components/provider-settings-dialog.tsx';
import { useConnectionActions } from './hooks/use-connection-actions.ts';
import { useConnections } from './hooks/use-connections.ts';
import { OAUTH_PROVIDERS, type OAuthProvider } from './providers.ts';
import { Card } from '../../components/ui/card.tsx';

/**
 * The OAuth Connections page (/oauth, spec §2): one card per provider of the catalogue. Every
 * member connects their own accounts here; master admins also set up the organisation's app
 * for each provider. The menu shows the page to admins only (spec route table).
 */
export function ConnectionsPage() {
  const { user, profile, organization, profileLoading } = useSession();
  const organizationId = organization?.id ?? null;
  const { list, refreshing } = useConnections(organizationId ? (user?.id ?? null) : null);
  // Settings that cannot be read leave every provider "not set up", the safe reading.
  const providerSettings = useProviderSettings(organizationId);
  const settingsById = useMemo(
    () => new Map((providerSettings.data ?? []).map((row) => [row.provider_id, row])),
    [providerSettings.data],
  );
  const actions = useConnectionActions();
  const [configuring, setConfiguring] = useState<OAuthProvider | null>(null);
  const canConfigure = isMasterAdminRole(profile?.role);

  if (profileLoading) return <Spinner />;
  if (!organizationId) {
    return (
      <Card padding="none" className="mx-auto max-w-xl p-6 text-center">
        <h1 className="text-xl font-semibold text-gray-900">OAuth Connections</h1>
        <p className="mt-2 text-sm text-gray-600">
          Connections belong to an organization. Set up your organization first.
        </p>
        <ButtonLink to={paths.users} className="mt-4">
          Set Up Organization
        </ButtonLink>
      </Card>
    );
  }

  const byProvider = new Map((list.data ?? []).map((c) => [c.provider_id, c]));

  return (
    <div>
      <header className="mb-6">
        <h1 className="text-2xl font-semibold text-gray-900">OAuth Connections</h1>
        <p className="mt-1 text-sm text-gray-600">
          Connect your accounts with the outside services your organization uses.
        </p>
      </header>

      {list.isError && (
        <div className="mb-4">
          <ErrorPanel
            title={errorMessage(list.error)}
            actions={
              <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
                Try again
              </Button>
            }
          />
        </div>
      )}
      {list.isPending || providerSettings.isPending ? (
        <Spinner />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {OAUTH_PROVIDERS.map((provider) => {
            const connection = byProvider.get(provider.id);
            return (
              <ProviderCard
                key={provider.id}
                provider={provider}
                connection={connection}
                settings={settingsById.get(provider.id)}
                canConfigure={canConfigure}
                busy={actions.busyProviderId === provider.id}
                refreshing={Boolean(connection && refreshing.has(connection.id))}
                onConnect={() => void actions.connect(provider)}
                onDisconnect={() => connection && void actions.disconnect(provider, connection)}
                onConfigure={() => setConfiguring(provider)}
              />
            );
          })}
        </div>
      )}

      <OAuthSecurityNote />

      {configuring && (
        <ProviderSettingsDialog
          provider={configuring}
          settings={settingsById.get(configuring.id)}
          onClose={() => setConfiguring(null)}
          onSaved={() => setConfiguring(null)}
        />
      )}
    </div>
  );
}
