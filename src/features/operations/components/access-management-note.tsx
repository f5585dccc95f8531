import { ShieldCheck } from 'lucide-react';

/**
 * The Access Management note of the Operations Center (product-spec §2): access is managed by
 * the organisation's administrators; the viewer's role and access level.
 */
export function AccessManagementNote({ isAdmin }: { isAdmin: boolean }) {
  return (
    <section
      aria-labelledby="access-management-heading"
      data-tone="info"
      className="flex flex-col gap-3 rounded-lg border border-tone-200 bg-tone-50 p-4 sm:flex-row sm:items-start"
    >
      <ShieldCheck className="h-6 w-6 shrink-0 text-tone-700" aria-hidden="true" />
      <div className="min-w-0">
        <h2 id="access-management-heading" className="font-semibold text-tone-900">
          Access Management
        </h2>
        <p className="mt-1 text-sm text-tone-900">
          Access to operations tools is managed by your organization’s administrators.
        </p>
        <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-medium text-tone-900">Current Role</dt>
            <dd className="text-tone-800">{isAdmin ? 'Administrator' : 'User'}</dd>
          </div>
          <div>
            <dt className="font-medium text-tone-900">Access Level</dt>
            <dd className="text-tone-800">{isAdmin ? 'Full Access' : 'Restricted Access'}</dd>
          </div>
        </dl>
      </div>
    </section>
  );
}
