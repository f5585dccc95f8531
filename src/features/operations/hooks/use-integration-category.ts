import { useMemo } from 'react';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useCustomIntegrations } from '../api/list-custom-integrations.ts';
import { useIntegrationContacts } from '../api/list-integration-contacts.ts';
import { useIntegrationCustomizations } from '../api/list-integration-customizations.ts';
import { integrationStats } from '../lib/integration-stats.ts';
import {
  builtInKeys,
  categoryIntegrations,
  type IntegrationContact,
} from '../lib/integration-view.ts';

/**
 * The integration cards of one operations category with the organisation's customisations,
 * custom integrations and saved contacts, and the Available Tools / OAuth Ready / Active
 * Contacts figures computed from them. Without an organisation there is nothing to load: the
 * built-in tools are shown as they come.
 */
export function useIntegrationCategory(category: OperationsCategoryKey, hasOrganization: boolean) {
  const enabled = hasOrganization;
  const builtIn = useMemo(() => builtInKeys(category), [category]);
  const customizations = useIntegrationCustomizations(builtIn, { enabled });
  const customs = useCustomIntegrations(category, { enabled });
  const integrations = useMemo(
    () => categoryIntegrations(category, customizations.data ?? [], customs.data ?? []),
    [category, customizations.data, customs.data],
  );
  const cardsKnown = customizations.isSuccess && customs.isSuccess;
  const contactKeys = useMemo(() => integrations.map(({ key }) => key), [integrations]);
  const contactList = useIntegrationContacts(contactKeys, { enabled: enabled && cardsKnown });
  const contacts = useMemo(
    () =>
      new Map<string, IntegrationContact>(
        (contactList.data ?? []).map((contact) => [contact.integration_key, contact]),
      ),
    [contactList.data],
  );

  const failed = [customizations, customs, contactList].find((query) => query.isError);
  const ready = !hasOrganization || (cardsKnown && contactList.data !== undefined);
  const stats = useMemo(
    () => (ready && !failed ? integrationStats(integrations, contacts) : null),
    [ready, failed, integrations, contacts],
  );
  return {
    // Without the organisation's settings the built-in tools are still worth reaching.
    integrations: failed ? categoryIntegrations(category, [], []) : ready ? integrations : [],
    contacts,
    stats,
    error: failed ? errorMessage(failed.error) : null,
    loading: !ready && !failed,
  };
}
