import type { IntegrationContact, IntegrationView } from './integration-view.ts';

export interface IntegrationStats {
  /** Available Tools: built-in plus custom integrations. */
  availableTools: number;
  /** OAuth Ready: tools of the seven named kinds. */
  oauthReady: number;
  /** Active Contacts: tools whose saved contact has a name. */
  activeContacts: number;
}

/** True when a saved contact has a name (only the name counts, product-spec §3). */
export function hasNamedContact(contact: Pick<IntegrationContact, 'name'> | undefined): boolean {
  return Boolean(contact?.name?.trim());
}

/** The three integration cards of a category page (product-spec §2). */
export function integrationStats(
  integrations: readonly IntegrationView[],
  contacts: ReadonlyMap<string, Pick<IntegrationContact, 'name'>>,
): IntegrationStats {
  return {
    availableTools: integrations.length,
    oauthReady: integrations.filter((integration) => integration.oauthKind !== null).length,
    activeContacts: integrations.filter((integration) =>
      hasNamedContact(contacts.get(integration.key)),
    ).length,
  };
}
