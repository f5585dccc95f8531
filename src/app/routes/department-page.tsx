import { Settings, ShieldCheck, Upload, Users } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { DetailPageHeader } from '../../components/detail-page-header.tsx';
import { NotFoundPanel } from '../../components/not-found-panel.tsx';
import { QuickActions, type QuickAction } from '../../components/quick-actions.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { findDepartment, type DepartmentDetails } from '../../config/department-details.ts';
import { paths } from '../../config/paths.ts';
import { useCategoryDocumentCount } from '../../features/category-documents/api/list-category-documents.ts';
import {
  tagSpellings,
  type DocumentMatch,
} from '../../features/category-documents/lib/document-match.ts';
import { useActiveMemberCount } from '../../features/departments/api/count-active-members.ts';
import { DepartmentFeatures } from '../../features/departments/components/department-features.tsx';
import { DepartmentSettingsDialog } from '../../features/departments/components/department-settings-dialog.tsx';
import { DepartmentStatCards } from '../../features/departments/components/department-stat-cards.tsx';
import {
  useDocumentAccess,
  useDocumentCategories,
  visibleCategoryNamed,
} from '../../lib/document-categories.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { CategoryDocumentsSection } from './category-documents-section.tsx';

export const TEAM_MANAGED_BY_ADMINS =
  'Team members are managed by your organization’s administrators. Please ask an admin to invite someone or change their access.';

function DepartmentContent({ department }: { department: DepartmentDetails }) {
  const { profile } = useSession();
  const toast = useToast();
  const organizationId = profile?.organization_id ?? null;
  const isAdmin = isAdminRole(profile?.role);
  // The documents that belong here, listed at the bottom and counted on the Documents card.
  const categories = useDocumentCategories();
  const { mayUpload } = useDocumentAccess();
  // An organisation that keeps a category of the department's name sees its documents here.
  const match: DocumentMatch = {
    documentCategory: visibleCategoryNamed(categories.data, department.label),
    tags: tagSpellings(department.key, department.label),
  };
  const documents = useCategoryDocumentCount(match);
  const members = useActiveMemberCount(organizationId);
  const [settingsOpen, setSettingsOpen] = useState(false);

  // The specification leaves these three open: team and access are managed on /users (admins
  // only); members are told whom to ask; the settings explain what shapes this page.
  const actions: QuickAction[] = [
    ...(mayUpload ? [{ label: 'Upload Documents', icon: Upload, to: paths.upload }] : []),
    isAdmin
      ? { label: 'Manage Team', icon: Users, to: paths.users }
      : { label: 'Manage Team', icon: Users, onClick: () => toast(TEAM_MANAGED_BY_ADMINS, 'info') },
    { label: 'Department Settings', icon: Settings, onClick: () => setSettingsOpen(true) },
    ...(isAdmin ? [{ label: 'Manage Access', icon: ShieldCheck, to: paths.users }] : []),
  ];

  return (
    <div className="space-y-6">
      <DetailPageHeader
        title={department.title}
        description={department.description}
        icon={department.icon}
        tone={`department-${department.key}`}
        backTo={paths.dashboard}
        backLabel="Back to Dashboard"
      />
      <DepartmentStatCards
        documents={documents.data}
        documentsFailed={documents.isError}
        teamMembers={organizationId ? members.data : 0}
        teamMembersFailed={members.isError}
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_18rem] lg:items-start">
        <DepartmentFeatures department={department} />
        <QuickActions actions={actions} />
      </div>
      <CategoryDocumentsSection title={`${department.label} Documents`} match={match} />
      {settingsOpen && (
        <DepartmentSettingsDialog department={department} onClose={() => setSettingsOpen(false)} />
      )}
    </div>
  );
}

/** /department/{department}: a department page (product-spec §2). */
export function DepartmentPage() {
  const { department: key } = useParams();
  const { profileLoading } = useSession();
  const department = findDepartment(key);
  if (!department) {
    return (
      <NotFoundPanel
        title="Department Not Found"
        message="There is no department at this address."
      />
    );
  }
  if (profileLoading) return <Spinner />;
  return <DepartmentContent key={department.key} department={department} />;
}
