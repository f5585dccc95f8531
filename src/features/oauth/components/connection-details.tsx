import { formatDate, formatDateTime } from '../../../lib/format.ts';
import type { Connection } from '../api/list-connections.ts';
import { scopeLabel } from '../lib/scope-label.ts';

/** Connected date, expiry and scopes of a connection (spec §2, OAuth Connections page). */
export function ConnectionDetails({ connection }: { connection: Connection }) {
  return (
    <dl className="mt-4 space-y-2 text-sm">
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-gray-500">Connected on</dt>
        <dd className="text-gray-900">{formatDate(connection.created_at)}</dd>
      </div>
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-gray-500">Expires</dt>
        <dd className="text-gray-900" data-testid="connection-expiry">
          {connection.expires_at ? formatDateTime(connection.expires_at) : 'Does not expire'}
        </dd>
      </div>
      {connection.scopes.length > 0 && (
        <div>
          <dt className="text-gray-500">Scopes</dt>
          <dd>
            <ul className="mt-1 flex flex-wrap gap-1" aria-label="Scopes">
              {connection.scopes.map((scope) => (
                <li
                  key={scope}
                  title={scope}
                  className="rounded bg-gray-100 px-2 py-0.5 font-mono text-xs text-gray-700"
                >
                  {scopeLabel(scope)}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      )}
    </dl>
  );
}
