import { ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useSession } from '../../lib/session.tsx';
import { CodeForm } from './components/code-form.tsx';
import { FactorSetup } from './components/factor-setup.tsx';

export const TWO_FACTOR_REQUIRED =
  'Your organization requires two-factor sign-in for admins. Set it up to continue.';

function Screen({ heading, children }: { heading: string; children: ReactNode }) {
  const { signOut } = useSession();
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="text-center">
          <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-primary-100 text-primary-700">
            <ShieldCheck className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-gray-900">{heading}</h1>
        </div>
        <div className="mt-6">{children}</div>
        <p className="mt-4 text-center text-sm">
          <Button variant="link" onClick={() => void signOut()}>
            Sign out
          </Button>
        </p>
      </section>
    </main>
  );
}

/** The second step of signing in: a code of the authenticator app set up before. */
export function TwoFactorChallengeScreen({ factorId }: { factorId: string }) {
  return (
    <Screen heading="Two-factor sign-in">
      <p className="mb-4 text-center text-sm text-gray-600">
        Enter the 6-digit code from your authenticator app.
      </p>
      <CodeForm factorId={factorId} />
    </Screen>
  );
}

/** An admin whose organisation requires a second factor, and who has none yet. */
export function TwoFactorEnrolmentScreen() {
  return (
    <Screen heading="Set up two-factor sign-in">
      <p role="status" className="mb-4 text-sm text-gray-700">
        {TWO_FACTOR_REQUIRED}
      </p>
      <FactorSetup screen="required" />
    </Screen>
  );
}
