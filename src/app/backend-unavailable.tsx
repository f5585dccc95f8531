import { Button } from '../components/ui/button.tsx';

/** Shown instead of a blank page when the backend cannot be reached at start-up. */
export function BackendUnavailable({ message }: { message: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div
        role="alert"
        className="max-w-md rounded-lg border border-red-200 bg-white p-6 shadow-sm"
      >
        <h1 className="text-lg font-semibold text-red-700">Cannot reach the server</h1>
        <p className="mt-2 text-sm text-gray-700">
          Steward could not connect to its backend. Check that the server is running (
          <code>npm start</code>) and reload this page.
        </p>
        <p className="mt-2 text-xs text-gray-500">{message}</p>
        <Button onClick={() => window.location.reload()} className="mt-4">
          Try again
        </Button>
      </div>
    </main>
  );
}
