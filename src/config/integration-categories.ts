import { Constants, type Enums } from '../lib/database.types.ts';

/**
 * The categories an integration can have in the edit dialog (product-spec §3). The list is the
 * one the database's check constraints hold (generated from them by npm run gen:types), so the
 * form offers exactly what the server accepts.
 */
export const INTEGRATION_CATEGORIES = Constants.public.Enums.custom_integrations_category;
export type IntegrationCategory = Enums<'custom_integrations_category'>;

export function isIntegrationCategory(value: string): value is IntegrationCategory {
  return (INTEGRATION_CATEGORIES as readonly string[]).includes(value);
}
