import { Button } from '../../../components/ui/button.tsx';
import { useGenerateRecoveryCodes } from '../api/recovery-codes.ts';

/**
 * One-time recovery codes for the day the phone is lost: made on demand, shown only then.
 * Each signs in once instead of the authenticator's code, and turns two-factor sign-in off so
 * that it can be set up again on a new phone.
 */
export function RecoveryCodes() {
  const generate = useGenerateRecoveryCodes();
  return (
    <div className="space-y-2">
      <p className="text-sm text-gray-700">
        Recovery codes let you sign in if you lose your phone. Each works once.
      </p>
      {generate.data && (
        <div className="rounded-md border border-amber-200 bg-amber-50 p-3">
          <p role="status" className="text-sm text-amber-900">
            Keep these codes somewhere safe: they are shown only now. Making new ones replaces them.
          </p>
          <ol
            aria-label="Recovery codes"
            className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm text-gray-900"
          >
            {generate.data.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ol>
        </div>
      )}
      <Button
        variant="secondary"
        size="sm"
        busy={generate.isPending}
        busyLabel="Making codes..."
        onClick={() => generate.mutate()}
      >
        {generate.data ? 'Make new recovery codes' : 'Make recovery codes'}
      </Button>
    </div>
  );
}
