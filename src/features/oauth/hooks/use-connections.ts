import { useEffect, useRef } from 'react';
import { dueForRefresh, useConnectionList } from '../api/list-connections.ts';
import { useRefreshConnection, useRefreshingConnectionIds } from '../api/refresh-connection.ts';

/**
 * The signed-in user's active connections. Connections whose token has under 5 minutes left
 * are refreshed on the server, once per expiry, and the list is read again (the list itself
 * is read again when the next one becomes due). `refreshing` holds the ids being refreshed.
 */
export function useConnections(userId: string | null) {
  const list = useConnectionList(userId);
  const { mutateAsync: refresh } = useRefreshConnection();
  const refreshing = useRefreshingConnectionIds();
  // `${id}@${expires_at}`: each expiry is refreshed at most once, even when that refresh fails.
  const attempted = useRef(new Set<string>());

  useEffect(() => {
    if (!list.data) return;
    const due = dueForRefresh(list.data, Date.now()).filter(
      (c) => !attempted.current.has(`${c.id}@${c.expires_at}`),
    );
    for (const c of due) {
      attempted.current.add(`${c.id}@${c.expires_at}`);
      // A failure shows in the list read again afterwards: the connection needs reconnecting.
      refresh(c).catch(() => {});
    }
  }, [list.data, refresh]);

  return { list, refreshing };
}
