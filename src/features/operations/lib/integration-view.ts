import type { IntegrationCategory } from '../../../config/integration-categories.ts';
import {
  BUILT_IN_INTEGRATIONS,
  type BuiltInIntegration,
  type OAuthReadyKind,
} from '../../../config/integrations.ts';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import type { Tables } from '../../../lib/database.types.ts';
import { customIntegrationKey, integrationKey } from './integration-key.ts';

export type IntegrationCustomization = Tables<'integration_customizations'>;
export type CustomIntegration = Tables<'custom_integrations'>;
export type IntegrationContact = Tables<'integration_contacts'>;

/** An integration card as shown: a built-in one with the organisation's edits, or a custom one. */
export interface IntegrationView {
  /** Stable and unique on the page; also the key of its contact. */
  key: string;
  source: 'built-in' | 'custom';
  name: string;
  description: string;
  url: string;
  category: IntegrationCategory;
  tags: string[];
  note: string | null;
  /** One of the seven OAuth-ready kinds (built-in only); decides OAuth Ready and the badge. */
  oauthKind: OAuthReadyKind | null;
  /** True when a master admin changed a built-in integration. */
  customized: boolean;
  /** The row id of a custom integration. */
  customId: string | null;
}

function builtInView(
  integration: BuiltInIntegration,
  customization: IntegrationCustomization | undefined,
): IntegrationView {
  const key = integrationKey(integration.name);
  return {
    key,
    source: 'built-in',
    name: customization?.name ?? integration.name,
    description: customization?.description ?? integration.description,
    url: customization?.url ?? integration.url,
    category: customization?.category ?? integration.category,
    tags: customization ? [...customization.tags] : [...integration.tags],
    note: customization ? customization.note : (integration.note ?? null),
    oauthKind: integration.oauthKind ?? null,
    customized: Boolean(customization),
    customId: null,
  };
}

function customView(row: CustomIntegration): IntegrationView {
  return {
    key: customIntegrationKey(row.id),
    source: 'custom',
    name: row.name,
    description: row.description,
    url: row.url,
    category: row.category,
    tags: [...row.tags],
    note: row.note,
    oauthKind: null,
    customized: false,
    customId: row.id,
  };
}

/** The built-in integrations' keys of one operations category (to fetch their customisations). */
export function builtInKeys(category: OperationsCategoryKey): string[] {
  return BUILT_IN_INTEGRATIONS[category].map((integration) => integrationKey(integration.name));
}

/**
 * The cards of one operations category: its built-in integrations with the organisation's
 * customisations applied, followed by the organisation's custom integrations, oldest first.
 */
export function categoryIntegrations(
  category: OperationsCategoryKey,
  customizations: readonly IntegrationCustomization[],
  customs: readonly CustomIntegration[],
): IntegrationView[] {
  const byKey = new Map(customizations.map((row) => [row.integration_key, row]));
  return [
    ...BUILT_IN_INTEGRATIONS[category].map((integration) =>
      builtInView(integration, byKey.get(integrationKey(integration.name))),
    ),
    ...customs.filter((row) => row.operations_category === category).map(customView),
  ];
}

/** How many built-in integrations the catalogue has across all nine categories. */
export function builtInIntegrationCount(): number {
  return Object.values(BUILT_IN_INTEGRATIONS).reduce((total, list) => total + list.length, 0);
}
