import { useCallback, useEffect, useRef, useState } from 'react';
import {
  needsRefresh,
  REFRESH_THRESHOLD_MS,
} from '../../../../supabase/functions/_shared/oauth-refresh-policy.ts';
import { refreshConnection } from '../api/authorization.ts';
import { listConnections, type Connection } from '../api/connections.ts';
import { errorText } from '../lib/format.ts';

export type ConnectionsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; connections: Connection[] };

// Timers longer than this are not worth keeping (and setTimeout overflows past ~24.8 days).
const MAX_TIMER_MS = 24 * 60 * 60 * 1000;

/**
 * The signed-in user's active connections. Connections whose token has under 5 minutes left
 * are refreshed on the server (once per expiry), then the list is read again; while the page is
 * open, a timer does the same when the next connection becomes due. `refreshing` holds the ids
 * being refreshed.
 */
export function useConnections(userId: string | null) {
  const [state, setState] = useState<ConnectionsState>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  const [refreshing, setRefreshing] = useState<ReadonlySet<string>>(() => new Set());
  // `${id}@${expires_at}`: each expiry is refreshed at most once, even when that refresh fails.
  const attempted = useRef(new Set<string>());
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    if (!userId) return;
    let current = true;
    listConnections(userId).then(
      (connections) => {
        if (current) setState({ status: 'ready', connections });
      },
      (error: unknown) => {
        if (current) setState({ status: 'error', message: errorText(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [userId, version]);

  useEffect(() => {
    if (state.status !== 'ready') return;
    const now = Date.now();
    const due = state.connections.filter(
      (c) =>
        !c.needs_reconnect &&
        needsRefresh(c.expires_at, now) &&
        !attempted.current.has(`${c.id}@${c.expires_at}`),
    );
    if (due.length > 0) {
      for (const c of due) attempted.current.add(`${c.id}@${c.expires_at}`);
      setRefreshing(new Set(due.map((c) => c.id)));
      // A failed refresh marks the connection for reconnection on the server; reading the
      // list again shows it.
      void Promise.allSettled(due.map((c) => refreshConnection(c.provider_id))).then(() => {
        setRefreshing(new Set());
        reload();
      });
      return;
    }
    const nextDue = Math.min(
      ...state.connections
        .filter((c) => c.expires_at && !c.needs_reconnect)
        .map((c) => Date.parse(c.expires_at!) - REFRESH_THRESHOLD_MS - now),
    );
    if (!Number.isFinite(nextDue) || nextDue > MAX_TIMER_MS) return;
    const timer = setTimeout(reload, Math.max(nextDue, 0) + 1000);
    return () => clearTimeout(timer);
  }, [state, reload]);

  return { state, refreshing, reload };
}
