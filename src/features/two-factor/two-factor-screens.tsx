import { ShieldCheck } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { AuthLayout } from '../../components/ui/auth-layout.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useSession } from '../../lib/session.tsx';
import { CodeForm } from './components/code-form.tsx';
import { FactorSetup } from './components/factor-setup.tsx';
import { RecoveryCodeForm } from './components/recovery-code-form.tsx';

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
  // Lost the phone: one of the recovery codes instead (issue 24).
  const [recovering, setRecovering] = useState(false);
  return (
    <Screen heading="Two-factor sign-in">
      {recovering ? (
        <RecoveryCodeForm />
      ) : (
        <>
          <p className="mb-4 text-center text-sm text-gray-600">
            Enter the 6-digit code from your authenticator app.
          </p>
          <CodeForm factorId={factorId} />
        </>
      )}
      <p className="mt-4 text-center text-sm">
        <Button variant="link" onClick={() => setRecovering((value) => !value)}>
          {recovering ? 'Use your authenticator app' : 'Lost your phone? Use a recovery code'}
        </Button>
      </p>
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
