import { AlertTriangle, UserX } from 'lucide-react';
import { Button } from '../components/ui/button.tsx';
import { useSession } from '../lib/session.tsx';
import { useSignOut } from './navigation/use-sign-out.ts';

/**
 * Shown instead of every page to a member an administrator has deactivated. The server already
 * gives them nothing of the organisation; empty pages would look like lost data, so say why.
 */
export function DeactivatedNotice() {
  return (
    <section
      role="alert"
      className="mx-auto mt-8 max-w-lg rounded-lg border border-amber-200 bg-white p-6 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <UserX className="mt-0.5 h-6 w-6 shrink-0 text-amber-600" aria-hidden="true" />
        <div>
          <h1 className="text-lg font-semibold text-gray-900">Your account has been deactivated</h1>
          <p className="mt-2 text-sm text-gray-700">
            You can no longer see or change your organization&apos;s documents. Please contact an
            administrator of your organization if you think this is a mistake.
          </p>
        </div>
      </div>
    </section>
  );
}

/** Shown when the signed-in user's profile cannot be loaded: retry, or sign out. */
export function ProfileLoadError({ message }: { message: string }) {
  const { refreshProfile } = useSession();
  const { signingOut, signOut } = useSignOut();
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <section
        role="alert"
        className="max-w-md rounded-lg border border-red-200 bg-white p-6 shadow-sm"
      >
        <div className="flex items-start gap-3">
          <AlertTriangle className="mt-0.5 h-6 w-6 shrink-0 text-red-600" aria-hidden="true" />
          <div>
            <h1 className="text-lg font-semibold text-red-700">Error: {message}</h1>
            <p className="mt-2 text-sm text-gray-700">
              Your account details could not be loaded. Check your connection and try again.
            </p>
            <div className="mt-4 flex gap-2">
              <Button onClick={() => void refreshProfile()}>Try again</Button>
              <Button variant="secondary" onClick={() => void signOut()} disabled={signingOut}>
                Sign out
              </Button>
            </div>
          </div>
        </div>
      </section>
    </main>
  );
}
