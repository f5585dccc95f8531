import { XCircle } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';

/** The failure view of the invitation page (spec §2), with the reason and Go to Login. */
export function InvalidInvitation({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-8 text-center shadow-sm">
      <XCircle className="mx-auto h-12 w-12 text-red-500" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900">Invalid Invitation</h1>
      <p role="alert" className="mt-2 text-sm text-gray-600">
        {message}
      </p>
      <button
        type="button"
        onClick={() => void navigate(paths.dashboard)}
        className="mt-6 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        Go to Login
      </button>
    </section>
  );
}
