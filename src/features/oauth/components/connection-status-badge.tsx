import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import type { Connection } from '../api/list-connections.ts';

const badge =
  'inline-flex shrink-0 items-center gap-1 rounded-full bg-tone-100 px-2.5 py-0.5 text-xs font-medium text-tone-800';

/** Connected, or Needs reconnection: an icon and a word, never colour alone. */
export function ConnectionStatusBadge({ connection }: { connection: Connection | undefined }) {
  if (!connection) return null;
  if (connection.needs_reconnect) {
    return (
      <span data-tone="warning" className={badge}>
        <AlertTriangle className="h-3.5 w-3.5" aria-hidden="true" />
        Needs reconnection
      </span>
    );
  }
  return (
    <span data-tone="success" className={badge}>
      <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
      Connected
    </span>
  );
}
