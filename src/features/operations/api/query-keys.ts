import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';

/**
 * The queries of the Operations Center and the category pages, each led by the table it reads,
 * so a write invalidates everything read from its table.
 */
export const operationsKeys = {
  customIntegrations: ['custom_integrations'] as const,
  customIntegrationsOf: (category: OperationsCategoryKey) =>
    ['custom_integrations', 'category', category] as const,
  customIntegrationCount: () => ['custom_integrations', 'count'] as const,
  customizations: ['integration_customizations'] as const,
  customizationsOf: (keys: readonly string[]) => ['integration_customizations', [...keys]] as const,
  contacts: ['integration_contacts'] as const,
  contactsOf: (keys: readonly string[]) => ['integration_contacts', [...keys]] as const,
  documentCount: () => ['documents', 'count'] as const,
  corporateStatus: () => ['corporate_status'] as const,
};
