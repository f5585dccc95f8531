import { Link2, Settings, Unlink } from 'lucide-react';
import type { Connection } from '../api/connections.ts';
import type { ProviderSettings } from '../api/provider-settings.ts';
import type { OAuthProvider } from '../providers.ts';
import { ConnectionDetails } from './connection-details.tsx';
import { ConnectionStatusBadge } from './connection-status-badge.tsx';

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

const buttonBase =
  'inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50';

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
    <article
      aria-labelledby={headingId}
      className="flex flex-col rounded-lg border border-gray-200 bg-white p-5 shadow-sm"
    >
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
        <p className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
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
          <button
            type="button"
            onClick={onDisconnect}
            disabled={busy}
            className={`${buttonBase} border border-red-200 text-red-700 hover:bg-red-50`}
          >
            <Unlink className="h-4 w-4" aria-hidden="true" />
            Disconnect
          </button>
        ) : (
          <button
            type="button"
            onClick={onConnect}
            disabled={busy || !configured}
            aria-label={`${connection ? 'Reconnect' : 'Connect'} ${provider.name}`}
            className={`${buttonBase} bg-blue-600 text-white hover:bg-blue-700`}
          >
            <Link2 className="h-4 w-4" aria-hidden="true" />
            {connection ? 'Reconnect' : 'Connect'}
          </button>
        )}
        {connection?.needs_reconnect && (
          <button
            type="button"
            onClick={onDisconnect}
            disabled={busy}
            className={`${buttonBase} border border-gray-300 text-gray-700 hover:bg-gray-50`}
          >
            Disconnect
          </button>
        )}
        {canConfigure && (
          <button
            type="button"
            onClick={onConfigure}
            aria-label={`Settings for ${provider.name}`}
            className={`${buttonBase} border border-gray-300 text-gray-700 hover:bg-gray-50`}
          >
            <Settings className="h-4 w-4" aria-hidden="true" />
            Settings
          </button>
        )}
      </div>
    </article>
  );
}
