import { FileText, KeyRound, UserRound, Wrench } from 'lucide-react';
import { StatCard } from '../../../components/stat-card.tsx';
import type { IntegrationStats } from '../lib/integration-stats.ts';

/** A figure still loading, or one that failed to load. */
function figure(value: number | undefined, failed: boolean) {
  if (value !== undefined) return value;
  return failed ? '—' : '…';
}

/** The four cards of an integration category page (product-spec §2). */
export function CategoryStatCards({
  relatedDocuments,
  relatedDocumentsFailed,
  stats,
  statsFailed,
}: {
  relatedDocuments: number | undefined;
  relatedDocumentsFailed: boolean;
  stats: IntegrationStats | null;
  statsFailed: boolean;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard
        label="Related Documents"
        value={figure(relatedDocuments, relatedDocumentsFailed)}
        icon={FileText}
      />
      <StatCard
        label="Available Tools"
        value={figure(stats?.availableTools, statsFailed)}
        icon={Wrench}
        tone="green"
      />
      <StatCard
        label="OAuth Ready"
        value={figure(stats?.oauthReady, statsFailed)}
        icon={KeyRound}
        tone="purple"
      />
      <StatCard
        label="Active Contacts"
        value={figure(stats?.activeContacts, statsFailed)}
        icon={UserRound}
        tone="orange"
      />
    </div>
  );
}
