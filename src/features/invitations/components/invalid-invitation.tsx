import { XCircle } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';

/** The failure view of the invitation page (spec §2), with the reason and Go to Login. */
export function InvalidInvitation({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <section className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-8 text-center shadow-sm">
      <XCircle className="mx-auto h-12 w-12 text-destructive-500" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900">Invalid Invitation</h1>
      <p role="alert" className="mt-2 text-sm text-gray-600">
        {message}
      </p>
      <Button className="mt-6" onClick={() => void navigate(paths.dashboard)}>
        Go to Login
      </Button>
    </section>
  );
}
