import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useRedeemRecoveryCode } from '../api/recovery-codes.ts';

/** A recovery code in place of the authenticator's, at the second step of signing in. */
export function RecoveryCodeForm() {
  const [code, setCode] = useState('');
  const redeem = useRedeemRecoveryCode();
  const errorId = useId();
  const error = redeem.isError ? errorMessage(redeem.error) : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    redeem.mutate(code, { onError: () => setCode('') });
  };

  return (
    <form onSubmit={onSubmit} aria-describedby={error ? errorId : undefined} className="space-y-4">
      <div id={errorId}>
        <FormError>{error}</FormError>
      </div>
      <FormField
        label="Recovery code"
        hint="One of the codes you kept when you set up two-factor sign-in. Two-factor sign-in is then turned off: set it up again on your new phone."
      >
        {(field) => (
          <Input
            {...field}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            maxLength={40}
            required
          />
        )}
      </FormField>
      <Button
        type="submit"
        className="w-full"
        disabled={code.trim().length < 12}
        busy={redeem.isPending}
        busyLabel="Checking..."
      >
        Use recovery code
      </Button>
    </form>
  );
}
