import { INTEGRATION_CATEGORIES, type IntegrationCategory } from '../lib/database.types.ts';

/**
 * The categories an integration can have in the edit dialog (product-spec §3). The list is the
 * one the database's check constraint holds, so the form offers exactly what the server accepts.
 */
export { INTEGRATION_CATEGORIES, type IntegrationCategory };

export function isIntegrationCategory(value: string): value is IntegrationCategory {
  return (INTEGRATION_CATEGORIES as readonly string[]).includes(value);
}
