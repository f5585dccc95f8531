import { useCallback, useEffect, useState } from 'react';
import { listPendingInvitations, type PendingInvitation } from '../api/invitations.ts';
import { listMembers, type Member } from '../api/members.ts';

export type TeamState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; members: Member[]; invitations: PendingInvitation[] };

/**
 * The members and pending invitations of the organisation. `reload` fetches both again in the
 * background (the tables stay on screen while it runs).
 */
export function useTeam(organizationId: string | null, enabled: boolean) {
  const [state, setState] = useState<TeamState>({ status: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!organizationId || !enabled) return;
    let current = true;
    Promise.all([listMembers(organizationId), listPendingInvitations(organizationId)]).then(
      ([members, invitations]) => {
        if (current) setState({ status: 'ready', members, invitations });
      },
      (error: unknown) => {
        if (current) {
          setState({
            status: 'error',
            message: error instanceof Error ? error.message : String(error),
          });
        }
      },
    );
    return () => {
      current = false;
    };
  }, [organizationId, enabled, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { state, reload };
}
