import { Link2, Settings, Unlink } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import type { Connection } from '../api/list-connections.ts';
import type { ProviderSettings } from '../api/list-provider-settings.ts';
import type { OAuthProvider } from '../providers.ts';
import { ConnectionDetails } from './connection-details.tsx';
import { ConnectionStatusBadge } from './connection-status-badge.tsx';
import { Card } from '../../../components/ui/card.tsx';

export interface ProviderCardProps {
  provider: OAuthProvider;
  connection: Connection | undefined;
  settings: ProviderSettings | undefined;
  /** Master admins configure the organisation's client for the provider. */
  canConfigure: boolean;
  busy: boolean;
  refreshing: boolean;
  onConnect: () => void;
  onDisconnect: () => void;
  onConfigure: () => void;
}

/** Whether the organisation has what connecting needs: a client id and a stored secret. */
export function isConfigured(provider: OAuthProvider, settings: ProviderSettings | undefined) {
  if (!settings?.client_id || !settings.has_client_secret) return false;
  return !provider.requiresAddressOverride || Boolean(settings.authorize_url && settings.token_url);
}

/** One provider of the catalogue: what it is, and Connect / Connected (spec §2). */
export function ProviderCard({
  provider,
  connection,
  settings,
  canConfigure,
  busy,
  refreshing,
  onConnect,
  onDisconnect,
  onConfigure,
}: ProviderCardProps) {
  const configured = isConfigured(provider, settings);
  const usable = connection && !connection.needs_reconnect;
  const headingId = `provider-${provider.id}`;
  return (
    <Card as="article" padding="none" aria-labelledby={headingId} className="flex flex-col p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-gray-900">
            {provider.name}
          </h2>
          <p className="text-xs font-medium tracking-wide text-gray-500 uppercase">
            {provider.category}
          </p>
        </div>
        <ConnectionStatusBadge connection={connection} />
      </div>
      <p className="mt-2 text-sm text-gray-600">{provider.description}</p>

      {connection && <ConnectionDetails connection={connection} />}
      {connection?.needs_reconnect && (
        <p data-tone="warning" className="mt-3 rounded-md bg-tone-50 p-3 text-sm text-tone-900">
          This connection stopped working. Connect again to keep using {provider.name}.
        </p>
      )}
      {refreshing && (
        <p role="status" className="mt-3 text-sm text-gray-600">
          Refreshing connection...
        </p>
      )}
      {!usable && !configured && (
        <p className="mt-3 text-sm text-gray-500">
          {canConfigure
            ? `Add your ${provider.name} app's client ID and secret in Settings to connect.`
            : `Not set up yet. Ask a master admin to set up ${provider.name}.`}
        </p>
      )}

      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        {usable ? (
          <Button
            variant="destructive-outline"
            icon={Unlink}
            onClick={onDisconnect}
            disabled={busy}
          >
            Disconnect
          </Button>
        ) : (
          <Button
            icon={Link2}
            onClick={onConnect}
            disabled={busy || !configured}
            aria-label={`${connection ? 'Reconnect' : 'Connect'} ${provider.name}`}
          >
            {connection ? 'Reconnect' : 'Connect'}
          </Button>
        )}
        {connection?.needs_reconnect && (
          <Button variant="secondary" onClick={onDisconnect} disabled={busy}>
            Disconnect
          </Button>
        )}
        {canConfigure && (
          <Button
            variant="secondary"
            icon={Settings}
            onClick={onConfigure}
            aria-label={`Settings for ${provider.name}`}
          >
            Settings
          </Button>
        )}
      </div>
    </Card>
  );
}
