import { useParams } from 'react-router-dom';
import { Spinner } from '../../components/spinner.tsx';
import { AcceptInvitationForm } from './components/accept-invitation-form.tsx';
import { InvalidInvitation } from './components/invalid-invitation.tsx';
import { useInvitation } from './hooks/use-invitation.ts';

/** The public page an invitation link opens (/invite/{token}, spec §2). */
export function AcceptInvitationPage() {
  const { token } = useParams();
  const state = useInvitation(token);
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      {state.status === 'loading' && <Spinner label="Loading invitation..." />}
      {state.status === 'invalid' && <InvalidInvitation message={state.message} />}
      {state.status === 'ready' && (
        <AcceptInvitationForm token={state.token} invitation={state.invitation} />
      )}
    </main>
  );
}
