import { errorMessage } from '../../../lib/errors.ts';
import { useCustomIntegrationCount } from '../api/count-custom-integrations.ts';
import { useDocumentCount } from '../api/count-documents.ts';
import { builtInIntegrationCount } from '../lib/integration-view.ts';

export interface OperationsOverview {
  /** Built-in integrations of all nine categories plus the organisation's own. */
  activeIntegrations: number;
  documents: number;
}

/** The Operations Center's live figures; without an organisation, the built-ins and no documents. */
export function useOperationsOverview(hasOrganization: boolean) {
  const custom = useCustomIntegrationCount({ enabled: hasOrganization });
  const documents = useDocumentCount({ enabled: hasOrganization });
  const failed = [custom, documents].find((query) => query.isError);
  let data: OperationsOverview | undefined;
  if (!hasOrganization) data = { activeIntegrations: builtInIntegrationCount(), documents: 0 };
  else if (custom.data !== undefined && documents.data !== undefined) {
    data = {
      activeIntegrations: builtInIntegrationCount() + custom.data,
      documents: documents.data,
    };
  }
  return { data, error: failed ? errorMessage(failed.error) : null };
}
