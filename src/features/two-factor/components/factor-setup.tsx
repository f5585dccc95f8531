import { Spinner } from '../../../components/ui/spinner.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { usePendingFactor } from '../api/two-factor.ts';
import { CodeForm } from './code-form.tsx';

/**
 * Setting up an authenticator app: the QR code to scan (or the key to type), then a code it
 * shows, which turns the factor on and this session to `aal2`.
 */
export function FactorSetup({ screen, onVerified }: { screen: string; onVerified?: () => void }) {
  const pending = usePendingFactor(screen);
  if (pending.isError) {
    return <ErrorPanel title={errorMessage(pending.error, 'Failed to start two-factor set-up')} />;
  }
  if (!pending.data) return <Spinner label="Preparing..." />;
  return (
    <div className="space-y-4">
      <p className="text-sm text-gray-700">
        Scan this QR code with an authenticator app (such as 2FAS, Aegis, Google Authenticator or
        1Password), then enter the 6-digit code it shows.
      </p>
      <img
        src={pending.data.qrCode}
        alt="QR code for your authenticator app"
        className="mx-auto h-48 w-48"
      />
      <p className="text-center text-xs text-gray-600">
        Or enter this key:{' '}
        <code data-testid="totp-secret" className="font-mono break-all text-gray-900">
          {pending.data.secret}
        </code>
      </p>
      <CodeForm factorId={pending.data.id} {...(onVerified ? { onVerified } : {})} />
    </div>
  );
}
