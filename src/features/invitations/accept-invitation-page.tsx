import { useParams } from 'react-router-dom';
import { InvalidLink } from '../../components/invalid-link.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { LOAD_FAILED, useInvitation } from './api/get-invitation.ts';
import { AcceptInvitationForm } from './components/accept-invitation-form.tsx';
import { useAcceptInvitation } from './hooks/use-accept-invitation.ts';

/** The public page an invitation link opens (/invite/{token}, spec §2). */
export function AcceptInvitationPage() {
  const token = useParams().token?.trim() ?? '';
  const lookup = useInvitation(token);
  const accept = useAcceptInvitation(token);
  // Accepting signs the invited person in, and a new user empties the cache of what was loaded
  // before, the lookup too: the form stays on screen with the invitation it was sent for.
  const invitation = lookup.data ?? accept.variables?.invitation;

  if (!token) return <InvalidLink title="Invalid Invitation" message="Invalid invitation link" />;
  if (invitation) return <AcceptInvitationForm invitation={invitation} accept={accept} />;
  if (lookup.isError) {
    return (
      <InvalidLink title="Invalid Invitation" message={errorMessage(lookup.error, LOAD_FAILED)} />
    );
  }
  return <Spinner label="Loading invitation..." fullScreen />;
}
