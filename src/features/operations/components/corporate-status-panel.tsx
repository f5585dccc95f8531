import { Building2, ExternalLink, Pencil, Search } from 'lucide-react';
import { useState } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { STATE_CORPORATE_PORTAL } from '../../../config/integrations.ts';
import { useCorporateStatus } from '../hooks/use-corporate-status.ts';
import { filingState } from '../lib/filing-state.ts';
import { CorporateStatusForm } from './corporate-status-form.tsx';
import { CorporateStatusView } from './corporate-status-view.tsx';
import { FilingBanner } from './filing-banner.tsx';

const linkClass = buttonClass({ variant: 'secondary', size: 'sm' });

/**
 * The legal category's Corporate Status Dashboard (product-spec §2, §3, §4): the organisation's
 * registration with the state, saved for the whole organisation; admins switch to edit mode.
 */
export function CorporateStatusPanel({
  organizationId,
  canEdit,
}: {
  organizationId: string | null;
  canEdit: boolean;
}) {
  const corporate = useCorporateStatus(organizationId);
  const [editing, setEditing] = useState(false);
  const filing = filingState(corporate.status?.next_due_date);

  return (
    <Card as="section" aria-labelledby="corporate-status-heading" className="sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex items-start gap-3">
          <Building2
            data-tone="category-legal"
            className="mt-0.5 h-6 w-6 shrink-0 text-tone-700"
            aria-hidden="true"
          />
          <div>
            <h2 id="corporate-status-heading" className="text-lg font-semibold text-gray-900">
              Corporate Status Dashboard
            </h2>
            <p className="text-sm text-gray-600">
              Your organization’s registration with the {STATE_CORPORATE_PORTAL.name}.
            </p>
          </div>
        </div>
        {canEdit && !editing && !corporate.loading && !corporate.error && (
          <Button icon={Pencil} onClick={() => setEditing(true)}>
            Edit Status
          </Button>
        )}
      </div>

      <div className="mt-4 space-y-4">
        {corporate.loading ? (
          <Spinner label="Loading corporate status..." />
        ) : corporate.error ? (
          <ErrorPanel title={`The corporate status could not be loaded: ${corporate.error}`} />
        ) : editing ? (
          <CorporateStatusForm
            status={corporate.status}
            onSave={async (details) => {
              await corporate.save(details);
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <>
            <FilingBanner state={filing} dueDate={corporate.status?.next_due_date ?? null} />
            <CorporateStatusView status={corporate.status} filing={filing} />
          </>
        )}

        <div className="flex flex-wrap gap-2 border-t border-gray-100 pt-4">
          <a
            href={STATE_CORPORATE_PORTAL.url}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClass}
          >
            <ExternalLink className="h-4 w-4" aria-hidden="true" />
            State Corporation Commission Portal
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          <a
            href={STATE_CORPORATE_PORTAL.entitySearchUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClass}
          >
            <Search className="h-4 w-4" aria-hidden="true" />
            Entity Search
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      </div>
    </Card>
  );
}
