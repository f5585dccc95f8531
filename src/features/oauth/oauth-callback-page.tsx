import { CheckCircle2, XCircle } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { useOAuthCallback } from './hooks/use-oauth-callback.ts';
import { findProvider } from './providers.ts';
import { Card } from '../../components/ui/card.tsx';

/** Spec §9: back to the dashboard 2 seconds after a successful connection. */
export const SUCCESS_REDIRECT_MS = 2000;

/**
 * Where a provider sends the user back (/oauth/callback/{providerId}, spec §2): reads code,
 * state and error, completes the connection, and shows loading, success or error.
 */
export function OAuthCallbackPage() {
  const { providerId } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { status } = useSession();
  const result = useOAuthCallback(
    {
      providerId,
      code: search.get('code'),
      state: search.get('state'),
      error: search.get('error'),
    },
    status === 'signed-in',
  );
  const providerName = (providerId && findProvider(providerId)?.name) ?? providerId ?? '';

  useEffect(() => {
    if (result.status !== 'success') return;
    const timer = setTimeout(() => navigate(paths.dashboard), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [result.status, navigate]);

  return (
    <Card padding="none" className="mx-auto mt-12 max-w-md p-8 text-center">
      {result.status === 'loading' && <Spinner label={`Connecting to ${providerName}...`} />}
      {result.status === 'success' && (
        <div role="status" data-tone="success">
          <CheckCircle2 className="mx-auto h-12 w-12 text-tone-600" aria-hidden="true" />
          <h1 className="mt-4 text-xl font-semibold text-gray-900">Connection Successful!</h1>
          <p className="mt-2 text-sm text-gray-600">Successfully connected to {providerName}</p>
          <p className="mt-1 text-xs text-gray-500">Returning to the dashboard...</p>
        </div>
      )}
      {result.status === 'error' && (
        <div role="alert">
          <XCircle className="mx-auto h-12 w-12 text-destructive-600" aria-hidden="true" />
          <h1 className="mt-4 text-xl font-semibold text-gray-900">Connection Failed</h1>
          <p className="mt-2 text-sm text-gray-700">{result.message}</p>
          {result.detail && <p className="mt-1 text-sm text-gray-500">{result.detail}</p>}
          <Button className="mt-6" onClick={() => void navigate(paths.dashboard)}>
            Return to Dashboard
          </Button>
        </div>
      )}
    </Card>
  );
}
