import { BarChart3, KeyRound, Plus, Upload } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { DetailPageHeader } from '../../components/detail-page-header.tsx';
import { NotFoundPanel } from '../../components/not-found-panel.tsx';
import { QuickActions } from '../../components/quick-actions.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import {
  findOperationsCategory,
  type OperationsCategoryDetails,
} from '../../config/operations-categories.ts';
import { paths } from '../../config/paths.ts';
import { useCategoryDocumentCount } from '../../features/category-documents/api/list-category-documents.ts';
import {
  tagSpellings,
  type DocumentMatch,
} from '../../features/category-documents/lib/document-match.ts';
import { useSaveContact } from '../../features/operations/api/save-integration-contact.ts';
import { CategoryPanel } from '../../features/operations/components/category-panel.tsx';
import { CategoryStatCards } from '../../features/operations/components/category-stat-cards.tsx';
import { CorporateStatusPanel } from '../../features/operations/components/corporate-status-panel.tsx';
import { IntegrationGrid } from '../../features/operations/components/integration-grid.tsx';
import { useIntegrationCategory } from '../../features/operations/hooks/use-integration-category.ts';
import { useIntegrationEditor } from '../../features/operations/hooks/use-integration-editor.ts';
import {
  useDocumentAccess,
  useDocumentCategories,
  visibleCategoryNamed,
} from '../../lib/document-categories.ts';
import { isAdminRole, isMasterAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { CategoryDocumentsSection } from './category-documents-section.tsx';

const QUICK_ACTIONS = [
  { label: 'Upload Documents', icon: Upload, to: paths.upload },
  { label: 'Manage OAuth', icon: KeyRound, to: paths.oauth },
  { label: 'View Reports', icon: BarChart3, to: paths.documents },
];

function CategoryContent({ category }: { category: OperationsCategoryDetails }) {
  const { profile } = useSession();
  const organizationId = profile?.organization_id ?? null;
  const isAdmin = isAdminRole(profile?.role);
  // The documents that belong here, listed at the bottom and counted on Related Documents.
  const categories = useDocumentCategories();
  const { mayUpload } = useDocumentAccess();
  const match: DocumentMatch = {
    // Until the organisation's list is in, the page's own name (the server shows only what the
    // member may view); then the organisation's category of that name, if she may view it.
    documentCategory: categories.data
      ? visibleCategoryNamed(categories.data, category.documentCategory)
      : category.documentCategory,
    tags: tagSpellings(category.key, category.label, category.matchTerm),
  };
  const related = useCategoryDocumentCount(match);
  const cards = useIntegrationCategory(category.key, Boolean(organizationId));
  // Editing on top of settings that failed to load could overwrite what others saved.
  const canEdit = isMasterAdminRole(profile?.role) && !cards.error;
  const canEditContacts = isAdmin && !cards.error;
  const editor = useIntegrationEditor(organizationId, category.key);
  const saveContact = useSaveContact(organizationId);
  const [adding, setAdding] = useState(false);

  return (
    <div className="space-y-6">
      <DetailPageHeader
        title={category.title}
        description={category.description}
        icon={category.icon}
        tone={`category-${category.key}`}
        backTo={paths.dashboard}
        backLabel="Back to Dashboard"
        actions={
          canEdit && (
            <Button icon={Plus} onClick={() => setAdding(true)} disabled={cards.loading}>
              Add Integration
            </Button>
          )
        }
      />

      <CategoryStatCards
        relatedDocuments={related.data}
        relatedDocumentsFailed={related.isError}
        stats={cards.stats}
        statsFailed={Boolean(cards.error)}
      />

      <CategoryPanel category={category} />

      {category.key === 'legal' && (
        <CorporateStatusPanel organizationId={organizationId} canEdit={isAdmin} />
      )}

      <div className="grid gap-6 lg:grid-cols-[1fr_18rem] lg:items-start">
        <section aria-labelledby="integrations-heading" className="min-w-0 space-y-4">
          <h2 id="integrations-heading" className="text-lg font-semibold text-gray-900">
            {category.label} Tools
          </h2>
          {cards.error && (
            <ErrorPanel
              title={`Your organization’s integration settings could not be loaded: ${cards.error}`}
            />
          )}
          {cards.loading ? (
            <Spinner label="Loading integrations..." />
          ) : (
            <IntegrationGrid
              integrations={cards.integrations}
              contacts={cards.contacts}
              canEdit={canEdit}
              canEditContacts={canEditContacts}
              adding={adding}
              onAddingDone={() => setAdding(false)}
              onSave={editor.save}
              onRemove={editor.remove}
              onSaveContact={saveContact}
            />
          )}
        </section>
        <div>
          <QuickActions
            actions={
              mayUpload ? QUICK_ACTIONS : QUICK_ACTIONS.filter(({ to }) => to !== paths.upload)
            }
          />
        </div>
      </div>

      <CategoryDocumentsSection title={`${category.label} Documents`} match={match} />
    </div>
  );
}

/** /operations/{category}: an integration category page (product-spec §2). */
export function IntegrationCategoryPage() {
  const { category: key } = useParams();
  const { profileLoading } = useSession();
  const category = findOperationsCategory(key);
  if (!category) {
    return (
      <NotFoundPanel
        title="Category Not Found"
        message="There is no operations category at this address."
      />
    );
  }
  if (profileLoading) return <Spinner />;
  return <CategoryContent key={category.key} category={category} />;
}
