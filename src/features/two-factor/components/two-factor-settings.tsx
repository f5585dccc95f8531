import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { factorKeys, useRemoveFactor, useVerifiedFactor } from '../api/two-factor.ts';
import { FactorSetup } from './factor-setup.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

export const TWO_FACTOR_ON = 'Two-factor sign-in is on.';
export const TWO_FACTOR_OFF = 'Two-factor sign-in is off.';

/** One's own second factor in the profile dialog: set it up, or turn it off. */
export function TwoFactorSettings() {
  const factor = useVerifiedFactor();
  const remove = useRemoveFactor();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [settingUp, setSettingUp] = useState(false);

  let body;
  if (factor.isPending) body = <Spinner />;
  else if (factor.isError) body = <ErrorPanel title={errorMessage(factor.error)} />;
  else if (factor.data) {
    body = (
      <>
        <p className="text-sm text-gray-700">
          {TWO_FACTOR_ON} Signing in asks for a code from your authenticator app.
        </p>
        <Button
          variant="destructive-outline"
          busy={remove.isPending}
          busyLabel="Turning off..."
          onClick={() => remove.mutate(factor.data!.id)}
        >
          Turn off two-factor sign-in
        </Button>
        <RecoveryCodes />
      </>
    );
  } else if (settingUp) {
    body = (
      <FactorSetup
        screen="profile"
        onVerified={() => {
          setSettingUp(false);
          toast(TWO_FACTOR_ON);
          void queryClient.invalidateQueries({ queryKey: factorKeys.verified });
        }}
      />
    );
  } else {
    body = (
      <>
        <p className="text-sm text-gray-700">
          {TWO_FACTOR_OFF} Add a code from an authenticator app to your password.
        </p>
        <Button variant="secondary" onClick={() => setSettingUp(true)}>
          Set up two-factor sign-in
        </Button>
      </>
    );
  }

  return (
    <section aria-label="Two-factor sign-in" className="space-y-2 border-t border-gray-200 pt-4">
      <h3 className="text-sm font-semibold text-gray-900">Two-factor sign-in</h3>
      {body}
    </section>
  );
}
