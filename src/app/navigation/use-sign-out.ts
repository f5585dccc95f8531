import { useMutation } from '@tanstack/react-query';
import { useSession } from '../../lib/session.tsx';

/** Signs out; the shell then shows the sign-in form in place of the page. */
export function useSignOut() {
  const { signOut } = useSession();
  // The specification gives no text for this failure; it says plainly what failed.
  const signingOut = useMutation({
    mutationFn: signOut,
    meta: { errorMessage: 'Failed to sign out' },
    onError: (error) => console.error('Sign out error', error),
  });
  return { signingOut: signingOut.isPending, signOut: () => signingOut.mutate() };
}
