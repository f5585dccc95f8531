import { paths } from '../../../config/paths.ts';
import {
  useInviteUser,
  type InvitationMailStatus,
  type InviteRequest,
} from '../api/invite-user.ts';

export interface SentInvitation {
  email: string;
  link: string;
  /** Whether it was e-mailed too, and what became of that e-mail. */
  mailStatus: InvitationMailStatus;
}

/** Sending an invitation; on success, the shareable link `{origin}/invite/{token}`. */
export function useInvite() {
  const invite = useInviteUser();
  const sent: SentInvitation | null = invite.data
    ? {
        email: invite.data.email,
        link: `${window.location.origin}${paths.invitation(invite.data.token)}`,
        mailStatus: invite.data.mailStatus,
      }
    : null;

  // A refusal is shown by the one handler of failed writes ("Failed to send invitation: …").
  const send = (request: InviteRequest) => invite.mutate(request);

  return { sending: invite.isPending, sent, send };
}
