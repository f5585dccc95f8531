import { useCallback } from 'react';
import { useAsyncData } from '../../../lib/use-async-data.ts';
import { countCustomIntegrations } from '../api/count-custom-integrations.ts';
import { countDocuments } from '../api/count-documents.ts';
import { builtInIntegrationCount } from '../lib/integration-view.ts';

export interface OperationsOverview {
  /** Built-in integrations of all nine categories plus the organisation's own. */
  activeIntegrations: number;
  documents: number;
}

/** The Operations Center's live figures. */
export function useOperationsOverview(hasOrganization: boolean) {
  const load = useCallback(async (): Promise<OperationsOverview> => {
    if (!hasOrganization) return { activeIntegrations: builtInIntegrationCount(), documents: 0 };
    const [custom, documents] = await Promise.all([countCustomIntegrations(), countDocuments()]);
    return { activeIntegrations: builtInIntegrationCount() + custom, documents };
  }, [hasOrganization]);
  return useAsyncData(load);
}
