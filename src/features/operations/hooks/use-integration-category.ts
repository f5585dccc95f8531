import { useCallback, useMemo } from 'react';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { useAsyncData } from '../../../lib/use-async-data.ts';
import { listCustomIntegrations } from '../api/list-custom-integrations.ts';
import { listIntegrationContacts } from '../api/list-integration-contacts.ts';
import { listIntegrationCustomizations } from '../api/list-integration-customizations.ts';
import { integrationStats } from '../lib/integration-stats.ts';
import {
  builtInKeys,
  categoryIntegrations,
  type IntegrationContact,
  type IntegrationView,
} from '../lib/integration-view.ts';

interface CategoryData {
  integrations: IntegrationView[];
  contacts: Map<string, IntegrationContact>;
}

/**
 * The integration cards of one operations category with the organisation's customisations,
 * custom integrations and saved contacts, and the Available Tools / OAuth Ready / Active
 * Contacts figures computed from them.
 */
export function useIntegrationCategory(category: OperationsCategoryKey, hasOrganization: boolean) {
  const load = useCallback(async (): Promise<CategoryData> => {
    if (!hasOrganization) {
      return { integrations: categoryIntegrations(category, [], []), contacts: new Map() };
    }
    const [customizations, customs] = await Promise.all([
      listIntegrationCustomizations(builtInKeys(category)),
      listCustomIntegrations(category),
    ]);
    const integrations = categoryIntegrations(category, customizations, customs);
    const contacts = await listIntegrationContacts(integrations.map(({ key }) => key));
    return {
      integrations,
      contacts: new Map(contacts.map((contact) => [contact.integration_key, contact])),
    };
  }, [category, hasOrganization]);
  const { data, error, loading, reload } = useAsyncData(load);

  const stats = useMemo(
    () => (data ? integrationStats(data.integrations, data.contacts) : null),
    [data],
  );
  return {
    // Without the organisation's settings the built-in tools are still worth reaching.
    integrations: data?.integrations ?? (error ? categoryIntegrations(category, [], []) : []),
    contacts: data?.contacts ?? new Map<string, IntegrationContact>(),
    stats,
    error,
    loading,
    reload,
  };
}
