import { XCircle } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../config/paths.ts';
import { AuthLayout } from './ui/auth-layout.tsx';
import { Button } from './ui/button.tsx';

/**
 * A link from an e-mail that cannot be used (an invitation, a password reset, a confirmation):
 * why, and Go to Login (spec §2, the invitation page's failure view).
 */
export function InvalidLink({
  title = 'Invalid Link',
  message,
}: {
  title?: string;
  message: string;
}) {
  const navigate = useNavigate();
  return (
    <AuthLayout icon={XCircle} tone="danger" title={title}>
      <p role="alert" className="text-center text-sm text-gray-600">
        {message}
      </p>
      <Button className="mt-6 w-full" onClick={() => void navigate(paths.dashboard)}>
        Go to Login
      </Button>
    </AuthLayout>
  );
}
