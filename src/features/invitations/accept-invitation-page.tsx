import { useParams } from 'react-router-dom';
import { Spinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { LOAD_FAILED, useInvitation } from './api/get-invitation.ts';
import { AcceptInvitationForm } from './components/accept-invitation-form.tsx';
import { InvalidInvitation } from './components/invalid-invitation.tsx';
import { useAcceptInvitation } from './hooks/use-accept-invitation.ts';

/** The public page an invitation link opens (/invite/{token}, spec §2). */
export function AcceptInvitationPage() {
  const token = useParams().token?.trim() ?? '';
  const lookup = useInvitation(token);
  const accept = useAcceptInvitation(token);
  // Accepting signs the invited person in, and a new user empties the cache of what was loaded
  // before, the lookup too: the form stays on screen with the invitation it was sent for.
  const invitation = lookup.data ?? accept.variables?.invitation;

  let content;
  if (!token) content = <InvalidInvitation message="Invalid invitation link" />;
  else if (invitation) content = <AcceptInvitationForm invitation={invitation} accept={accept} />;
  else if (lookup.isError) {
    content = <InvalidInvitation message={errorMessage(lookup.error, LOAD_FAILED)} />;
  } else content = <Spinner label="Loading invitation..." />;

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      {content}
    </main>
  );
}
