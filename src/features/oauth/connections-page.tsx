import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { isMasterAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { OAuthSecurityNote } from './components/oauth-security-note.tsx';
import { ProviderCard } from './components/provider-card.tsx';
import { ProviderSettingsDialog } from './components/provider-settings-dialog.tsx';
import { useConnectionActions } from './hooks/use-connection-actions.ts';
import { useConnections } from './hooks/use-connections.ts';
import { useProviderSettings } from './hooks/use-provider-settings.ts';
import { OAUTH_PROVIDERS, type OAuthProvider } from './providers.ts';

/**
 * The OAuth Connections page (/oauth, spec §2): one card per provider of the catalogue. Every
 * member connects their own accounts here; master admins also set up the organisation's app
 * for each provider. The menu shows the page to admins only (spec route table).
 */
export function ConnectionsPage() {
  const { user, profile, organization, profileLoading } = useSession();
  const organizationId = organization?.id ?? null;
  const connections = useConnections(organizationId ? (user?.id ?? null) : null);
  const providerSettings = useProviderSettings(organizationId);
  const actions = useConnectionActions(connections.reload);
  const [configuring, setConfiguring] = useState<OAuthProvider | null>(null);
  const canConfigure = isMasterAdminRole(profile?.role);

  if (profileLoading) return <Spinner />;
  if (!organizationId) {
    return (
      <div className="mx-auto max-w-xl rounded-lg border border-gray-200 bg-white p-6 text-center">
        <h1 className="text-xl font-semibold text-gray-900">OAuth Connections</h1>
        <p className="mt-2 text-sm text-gray-600">
          Connections belong to an organization. Set up your organization first.
        </p>
        <Link
          to={paths.users}
          className="mt-4 inline-block rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
        >
          Set Up Organization
        </Link>
      </div>
    );
  }

  const { state } = connections;
  const byProvider = new Map(
    state.status === 'ready' ? state.connections.map((c) => [c.provider_id, c]) : [],
  );

  return (
    <div>
      <header className="mb-6">
        <h1 className="text-2xl font-semibold text-gray-900">OAuth Connections</h1>
        <p className="mt-1 text-sm text-gray-600">
          Connect your accounts with the outside services your organization uses.
        </p>
      </header>

      {state.status === 'error' && (
        <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-700">
          {state.message}
        </p>
      )}
      {state.status === 'loading' || !providerSettings.loaded ? (
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
                settings={providerSettings.settings.get(provider.id)}
                canConfigure={canConfigure}
                busy={actions.busyProviderId === provider.id}
                refreshing={Boolean(connection && connections.refreshing.has(connection.id))}
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
          settings={providerSettings.settings.get(configuring.id)}
          onClose={() => setConfiguring(null)}
          onSaved={() => {
            setConfiguring(null);
            providerSettings.reload();
          }}
        />
      )}
    </div>
  );
}
