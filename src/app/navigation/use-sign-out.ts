import { useState } from 'react';
import { useFeedback } from '../../components/feedback.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useSession } from '../../lib/session.tsx';

/** Signs out; the shell then shows the sign-in form in place of the page. */
export function useSignOut() {
  const { signOut } = useSession();
  const { alert } = useFeedback();
  const [signingOut, setSigningOut] = useState(false);

  const run = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } catch (error) {
      // The specification gives no text for this; say it plainly and keep the user informed.
      console.error('Sign out error', error);
      await alert(`Failed to sign out: ${errorMessage(error)}`);
    } finally {
      setSigningOut(false);
    }
  };

  return { signingOut, signOut: run };
}
