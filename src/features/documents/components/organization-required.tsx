import { Building2 } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { paths } from '../../../config/paths.ts';
import { Card } from '../../../components/ui/card.tsx';

/**
 * Documents belong to an organisation: a member without one is shown the way to set it up,
 * not an upload that would lead nowhere.
 */
export function OrganizationRequired({ title }: { title: string }) {
  return (
    <Card padding="none" className="mx-auto max-w-xl p-6 text-center">
      <Building2 className="mx-auto h-10 w-10 text-gray-400" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-semibold text-gray-900">{title}</h1>
      <p className="mt-2 text-sm text-gray-600">
        Documents belong to an organization. Set up your organization first, then upload and manage
        its documents here.
      </p>
      <ButtonLink to={paths.users} className="mt-4">
        Set Up Organization
      </ButtonLink>
    </Card>
  );
}
