import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import type { Connection } from '../api/connections.ts';

/** Connected, or Needs reconnection: an icon and a word, never colour alone. */
export function ConnectionStatusBadge({ connection }: { connection: Connection | undefined }) {
  if (!connection) return null;
  if (connection.needs_reconnect) {
    return (
      <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-800">
        <AlertTriangle className="h-3.5 w-3.5" aria-hidden="true" />
        Needs reconnection
      </span>
    );
  }
  return (
    <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-medium text-green-800">
      <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
      Connected
    </span>
  );
}
