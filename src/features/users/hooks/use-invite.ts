import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { paths } from '../../../config/paths.ts';
import { inviteUser, type InviteRequest } from '../api/invitations.ts';
import { errorText } from '../lib/format.ts';

export interface SentInvitation {
  email: string;
  link: string;
}

/** Sending an invitation; on success, the shareable link `{origin}/invite/{token}`. */
export function useInvite(onInvited: () => void) {
  const { alert } = useFeedback();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<SentInvitation | null>(null);

  const send = async (request: InviteRequest) => {
    setSending(true);
    try {
      const { email, token } = await inviteUser(request);
      setSent({ email, link: `${window.location.origin}${paths.invitation(token)}` });
      onInvited();
    } catch (error) {
      await alert(`Failed to send invitation: ${errorText(error)}`);
    } finally {
      setSending(false);
    }
  };

  return { sending, sent, send };
}
