import { Link } from 'react-router-dom';
import { errorMessage } from '../lib/errors.ts';

/** Shown in place of one route when it fails to load or render; the rest of the app stays. */
export function RouteError({ error }: { error: unknown }) {
  const message = errorMessage(error);
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-lg border border-red-200 bg-white p-6">
      <h1 className="text-lg font-semibold text-red-700">Something went wrong</h1>
      <p className="mt-2 text-sm text-gray-700">{message}</p>
      <Link
        to="/"
        className="mt-4 inline-block text-sm font-medium text-primary-700 hover:underline"
      >
        Return to Dashboard
      </Link>
    </div>
  );
}
