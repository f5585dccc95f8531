import { ShieldAlert } from 'lucide-react';
import { Card } from '../../../components/ui/card.tsx';

/** What a member who is not an admin sees on /users (spec §2). */
export function AccessRestricted() {
  return (
    <Card as="section" padding="none" className="mx-auto max-w-lg p-8 text-center">
      <ShieldAlert
        data-tone="warning"
        className="mx-auto h-10 w-10 text-tone-500"
        aria-hidden="true"
      />
      <h1 className="mt-4 text-xl font-semibold text-gray-900">Access Restricted</h1>
      <p className="mt-2 text-sm text-gray-600">
        You need admin privileges to access user management.
      </p>
    </Card>
  );
}
