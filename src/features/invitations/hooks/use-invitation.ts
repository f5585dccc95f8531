import { useEffect, useState } from 'react';
import { getInvitation, type InvitationDetails } from '../api/invitation.ts';

export type InvitationState =
  | { status: 'loading' }
  | { status: 'invalid'; message: string }
  | { status: 'ready'; token: string; invitation: InvitationDetails };

/** Looks the invitation up by its token (spec §5: Invitation lookup). */
export function useInvitation(token: string | undefined): InvitationState {
  const trimmed = token?.trim() ?? '';
  const [state, setState] = useState<{ token: string; value: InvitationState } | null>(null);

  useEffect(() => {
    if (!trimmed) return;
    let current = true;
    getInvitation(trimmed).then(
      (invitation) => {
        if (current)
          setState({ token: trimmed, value: { status: 'ready', token: trimmed, invitation } });
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : 'Failed to load invitation';
        if (current) setState({ token: trimmed, value: { status: 'invalid', message } });
      },
    );
    return () => {
      current = false;
    };
  }, [trimmed]);

  if (!trimmed) return { status: 'invalid', message: 'Invalid invitation link' };
  return state?.token === trimmed ? state.value : { status: 'loading' };
}
