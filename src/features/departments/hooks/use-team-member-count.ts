import { useCallback } from 'react';
import { useAsyncData } from '../../../lib/use-async-data.ts';
import { countActiveMembers } from '../api/count-active-members.ts';

/** The organisation's real active member count (architecture.md: instead of the fixed 8). */
export function useTeamMemberCount(organizationId: string | null) {
  const load = useCallback(
    () => (organizationId ? countActiveMembers(organizationId) : Promise.resolve(0)),
    [organizationId],
  );
  return useAsyncData(load);
}
