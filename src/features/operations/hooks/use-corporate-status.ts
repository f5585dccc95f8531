import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { useCorporateStatusQuery } from '../api/fetch-corporate-status.ts';
import { operationsKeys } from '../api/query-keys.ts';
import { saveCorporateStatus, type CorporateStatusDetails } from '../api/save-corporate-status.ts';

/**
 * The organisation's corporate status, and saving it (admins) for the whole organisation: the
 * dashboard of every member shows the saved one. Saving throws with the server's message; the
 * edit form's save is the one mutation, whose failure is the notice.
 */
export function useCorporateStatus(organizationId: string | null) {
  const status = useCorporateStatusQuery({ enabled: organizationId !== null });
  const queryClient = useQueryClient();
  const save = useCallback(
    async (details: CorporateStatusDetails) => {
      if (!organizationId) throw new Error('No organization found');
      const saved = await saveCorporateStatus(organizationId, details);
      queryClient.setQueryData(operationsKeys.corporateStatus(), saved);
    },
    [organizationId, queryClient],
  );
  return {
    status: status.data ?? null,
    error: status.isError ? errorMessage(status.error) : null,
    loading: organizationId !== null && status.isPending,
    save,
  };
}
