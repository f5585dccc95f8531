import { ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { AuthLayout } from '../../components/ui/auth-layout.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useSession } from '../../lib/session.tsx';
import { CodeForm } from './components/code-form.tsx';
import { FactorSetup } from './components/factor-setup.tsx';

export const TWO_FACTOR_REQUIRED =
  'Your organization requires two-factor sign-in for admins. Set it up to continue.';

function Screen({ heading, children }: { heading: string; children: ReactNode }) {
  const { signOut } = useSession();
  return (
    <AuthLayout icon={ShieldCheck} title={heading}>
      {children}
      <p className="mt-4 text-center text-sm">
        <Button variant="link" onClick={() => void signOut()}>
          Sign out
        </Button>
      </p>
    </AuthLayout>
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
