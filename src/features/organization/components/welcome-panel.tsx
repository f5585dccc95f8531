import { Building2 } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { paths } from '../../../config/paths.ts';

/**
 * What the dashboard shows a signed-in user who has no organisation yet (product-spec §2): a
 * welcome, and the way to set one up on the User Management page.
 */
export function WelcomePanel() {
  return (
    <section className="mx-auto max-w-2xl space-y-6 py-6">
      <div>
        <h1 className="text-2xl font-bold text-gray-900">Welcome to Steward</h1>
        <p className="mt-2 text-sm text-gray-600">
          You are signed in, but you are not part of an organization yet.
        </p>
      </div>
      <div data-tone="info" className="rounded-lg border border-tone-200 bg-tone-50 p-6">
        <div className="flex items-start gap-4">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-tone-100 text-tone-700">
            <Building2 className="h-5 w-5" aria-hidden="true" />
          </span>
          <div>
            <h2 className="text-lg font-semibold text-gray-900">Set up your organization</h2>
            <p className="mt-1 text-sm text-gray-700">
              Create your organization to start uploading documents and inviting your team. If a
              colleague has invited you, open the invitation link they sent you instead.
            </p>
            <ButtonLink to={paths.users} className="mt-4">
              Set Up Organization
            </ButtonLink>
          </div>
        </div>
      </div>
    </section>
  );
}
