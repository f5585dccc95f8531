import { errorMessage } from '../../../lib/errors.ts';
import { useCorporateStatusQuery } from '../api/fetch-corporate-status.ts';
import { useSaveCorporateStatus } from '../api/save-corporate-status.ts';

/** The organisation's corporate status, and saving it (admins) for the whole organisation. */
export function useCorporateStatus(organizationId: string | null) {
  const status = useCorporateStatusQuery({ enabled: organizationId !== null });
  const save = useSaveCorporateStatus(organizationId);
  return {
    status: status.data ?? null,
    error: status.isError ? errorMessage(status.error) : null,
    loading: organizationId !== null && status.isPending,
    save: save.mutateAsync,
  };
}
