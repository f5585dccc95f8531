import { OrganizationSetup } from '../../features/organization/components/organization-setup.tsx';
import { AccessRestricted } from '../../features/users/components/access-restricted.tsx';
import { UserManagement } from '../../features/users/components/user-management.tsx';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';

/**
 * User Management (/users, spec §2): the organisation set-up screen without an organisation,
 * Access Restricted for non-admins, otherwise the team's administration.
 */
export function UsersPage() {
  const { profile, organization } = useSession();
  const organizationId = profile?.organization_id ?? null;
  if (!profile || !organizationId) return <OrganizationSetup />;
  if (!isAdminRole(profile.role)) return <AccessRestricted />;
  return (
    <UserManagement
      currentUser={profile}
      organizationId={organizationId}
      organizationName={organization?.name ?? 'your organization'}
    />
  );
}
