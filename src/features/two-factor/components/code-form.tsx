import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useVerifyCode } from '../api/two-factor.ts';

/** The six-digit code of an authenticator app, for `factorId`. */
export function CodeForm({ factorId, onVerified }: { factorId: string; onVerified?: () => void }) {
  const [code, setCode] = useState('');
  const verify = useVerifyCode();
  const errorId = useId();
  const error = verify.isError ? errorMessage(verify.error, 'Failed to verify the code') : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(
      { factorId, code },
      {
        onSuccess: () => onVerified?.(),
        onError: () => setCode(''),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} aria-describedby={error ? errorId : undefined} className="space-y-4">
      <div id={errorId}>
        <FormError>{error}</FormError>
      </div>
      <FormField label="Authentication code">
        {(field) => (
          <Input
            {...field}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            required
          />
        )}
      </FormField>
      <Button
        type="submit"
        className="w-full"
        disabled={code.replace(/\s+/g, '').length !== 6}
        busy={verify.isPending}
        busyLabel="Verifying..."
      >
        Verify
      </Button>
    </form>
  );
}
