import { useCallback } from 'react';
import { useAsyncData } from '../../../lib/use-async-data.ts';
import { fetchCorporateStatus, type CorporateStatus } from '../api/fetch-corporate-status.ts';
import { saveCorporateStatus, type CorporateStatusDetails } from '../api/save-corporate-status.ts';

/** The organisation's corporate status, and saving it (admins) for the whole organisation. */
export function useCorporateStatus(organizationId: string | null) {
  const load = useCallback(
    (): Promise<CorporateStatus | null> =>
      organizationId ? fetchCorporateStatus() : Promise.resolve(null),
    [organizationId],
  );
  const { data, error, loading, reload } = useAsyncData(load);

  const save = useCallback(
    async (details: CorporateStatusDetails) => {
      if (!organizationId) throw new Error('No organization found');
      await saveCorporateStatus(organizationId, details);
      await reload();
    },
    [organizationId, reload],
  );

  return { status: data ?? null, error, loading, save };
}
