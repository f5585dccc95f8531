import { Folder, Settings, ShieldCheck, Upload, Users } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { DetailPageHeader } from '../../components/detail-page-header.tsx';
import { NotFoundPanel } from '../../components/not-found-panel.tsx';
import { QuickActions, type QuickAction } from '../../components/quick-actions.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { findDepartment, type DepartmentDetails } from '../../config/department-details.ts';
import type { DepartmentKey } from '../../config/departments.ts';
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
import { useDepartments, type Department } from '../../features/settings/api/list-departments.ts';
import { useDocumentAccess } from '../../lib/document-categories.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { CategoryDocumentsSection } from './category-documents-section.tsx';

export const TEAM_MANAGED_BY_ADMINS =
  'Team members are managed by your organization’s administrators. Please ask an admin to invite someone or change their access.';

/**
 * What the page shows of a department the organisation keeps (Settings): the specification's
 * details for its nine, under the name the organisation gave it; a department it added has its
 * name and description alone.
 */
function detailsOf(stored: Department): { details: DepartmentDetails; custom: boolean } {
  const spec = findDepartment(stored.key);
  if (spec) {
    const renamed = stored.name !== spec.label;
    return {
      custom: false,
      details: {
        ...spec,
        label: stored.name,
        title: renamed ? stored.name : spec.title,
        description: stored.description ?? spec.description,
      },
    };
  }
  return {
    custom: true,
    details: {
      // Only used for its tone and the tag spellings; a custom department has neither features
      // nor a tone of its own.
      key: stored.key as DepartmentKey,
      label: stored.name,
      title: stored.name,
      description: stored.description ?? '',
      icon: Folder,
      features: ['', '', '', '', '', ''],
    },
  };
}

function DepartmentContent({
  department,
  stored,
  custom,
}: {
  department: DepartmentDetails;
  stored: Department;
  custom: boolean;
}) {
  const { profile } = useSession();
  const toast = useToast();
  const organizationId = profile?.organization_id ?? null;
  const isAdmin = isAdminRole(profile?.role);
  // The documents that belong here, listed at the bottom and counted on the Documents card.
  const { mayUpload } = useDocumentAccess();
  // Its categories and tags, as set in Settings (the specification's nine start with their key
  // and name as tags); search_documents lists only what the caller may view of them.
  const match: DocumentMatch = {
    documentCategory: null,
    tags: tagSpellings(...stored.tags),
    categories: stored.categories,
  };
  const documents = useCategoryDocumentCount(match);
  const members = useActiveMemberCount(organizationId);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The empty list's Upload files the documents where this page finds them: its first category
  // and its tags filled in on the form.
  const uploadHere = paths.uploadWith({ category: stored.categories[0], tags: stored.tags });

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
        tone={custom ? 'slate' : `department-${department.key}`}
        backTo={paths.dashboard}
        backLabel="Back to Dashboard"
      />
      <DepartmentStatCards
        documents={documents.data}
        documentsFailed={documents.isError}
        teamMembers={organizationId ? members.data : 0}
        teamMembersFailed={members.isError}
      />
      <DocumentRule stored={stored} canChange={isAdmin} />
      <div className="grid gap-6 lg:grid-cols-[1fr_18rem] lg:items-start">
        {custom ? <div /> : <DepartmentFeatures department={department} />}
        <QuickActions actions={actions} />
      </div>
      <CategoryDocumentsSection
        title={`${department.label} Documents`}
        match={match}
        uploadTo={uploadHere}
      />
      {settingsOpen && (
        <DepartmentSettingsDialog
          department={department}
          categories={stored.categories}
          tags={stored.tags}
          onClose={() => setSettingsOpen(false)}
        />
      )}
    </div>
  );
}

/** /department/{department}: a department page (product-spec §2). */
export function DepartmentPage() {
  const { department: key } = useParams();
  const { profileLoading, profile } = useSession();
  const departments = useDepartments(profile?.organization_id ?? '');
  if (profileLoading || departments.isPending) return <Spinner />;
  // The organisation's own departments (Settings); its hidden ones keep their page.
  const stored = departments.data?.find((department) => department.key === key);
  if (!stored) {
    return (
      <NotFoundPanel
        title="Department Not Found"
        message="There is no department at this address."
      />
    );
  }
  const { details, custom } = detailsOf(stored);
  return <DepartmentContent key={stored.id} department={details} stored={stored} custom={custom} />;
}

/** Which documents the page lists, on the page itself, and where admins change it. */
function DocumentRule({ stored, canChange }: { stored: Department; canChange: boolean }) {
  const parts = [
    stored.categories.length > 0 ? `of the categories ${stored.categories.join(', ')}` : null,
    stored.tags.length > 0 ? `tagged ${stored.tags.join(', ')}` : null,
  ].filter(Boolean);
  return (
    <p className="text-sm text-gray-600">
      {parts.length > 0
        ? `This page lists the documents ${parts.join(', or ')}.`
        : 'No categories or tags are chosen for this page yet.'}
      {canChange && (
        <>
          {' '}
          <Link to={paths.settings} className="font-medium text-primary-700 hover:underline">
            Change in Settings
          </Link>
        </>
      )}
    </p>
  );
}
