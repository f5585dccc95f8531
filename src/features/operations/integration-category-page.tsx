import { BarChart3, KeyRound, Plus, Upload } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { DetailPageHeader } from '../../components/detail-page-header.tsx';
import { NotFoundPanel } from '../../components/not-found-panel.tsx';
import { QuickActions } from '../../components/quick-actions.tsx';
import { Spinner } from '../../components/spinner.tsx';
import {
  findOperationsCategory,
  type OperationsCategoryDetails,
} from '../../config/operations-categories.ts';
import { paths } from '../../config/paths.ts';
import { isAdminRole, isMasterAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { CategoryDocumentList } from '../category-documents/components/category-document-list.tsx';
import { useDocumentsMatchingCount } from '../category-documents/hooks/use-documents-matching-count.ts';
import { tagSpellings } from '../category-documents/lib/document-match.ts';
import { CategoryPanel } from './components/category-panel.tsx';
import { CategoryStatCards } from './components/category-stat-cards.tsx';
import { CorporateStatusPanel } from './components/corporate-status-panel.tsx';
import { IntegrationGrid } from './components/integration-grid.tsx';
import { useContactEditor } from './hooks/use-contact-editor.ts';
import { useIntegrationCategory } from './hooks/use-integration-category.ts';
import { useIntegrationEditor } from './hooks/use-integration-editor.ts';

const QUICK_ACTIONS = [
  { label: 'Upload Documents', icon: Upload, to: paths.upload },
  { label: 'Manage OAuth', icon: KeyRound, to: paths.oauth },
  { label: 'View Reports', icon: BarChart3, to: paths.documents },
];

function CategoryContent({ category }: { category: OperationsCategoryDetails }) {
  const { profile } = useSession();
  const organizationId = profile?.organization_id ?? null;
  const isAdmin = isAdminRole(profile?.role);
  const related = useDocumentsMatchingCount(category.matchTerm, Boolean(organizationId));
  const cards = useIntegrationCategory(category.key, Boolean(organizationId));
  // Editing on top of settings that failed to load could overwrite what others saved.
  const canEdit = isMasterAdminRole(profile?.role) && !cards.error;
  const canEditContacts = isAdmin && !cards.error;
  const editor = useIntegrationEditor(organizationId, category.key, cards.reload);
  const saveContact = useContactEditor(organizationId, cards.reload);
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
            <button
              type="button"
              onClick={() => setAdding(true)}
              disabled={cards.loading && !cards.stats}
              className="inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50"
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
              Add Integration
            </button>
          )
        }
      />

      <CategoryStatCards
        relatedDocuments={related.data}
        relatedDocumentsFailed={Boolean(related.error)}
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
            <p role="alert" className="text-sm text-red-700">
              Your organization’s integration settings could not be loaded: {cards.error}
            </p>
          )}
          {cards.loading && !cards.stats ? (
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
          <QuickActions actions={QUICK_ACTIONS} />
        </div>
      </div>

      <CategoryDocumentList
        title={`${category.label} Documents`}
        match={{
          documentCategory: category.documentCategory,
          tags: tagSpellings(category.key, category.label, category.matchTerm),
        }}
      />
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
