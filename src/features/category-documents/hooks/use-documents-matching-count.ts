import { useCallback } from 'react';
import { useAsyncData } from '../../../lib/use-async-data.ts';
import { countDocumentsMatching } from '../api/count-documents-matching.ts';

/**
 * The count of documents whose category or any tag contains `term` (Related Documents on a
 * category page, Documents on a department page). Without an organisation there is nothing
 * to count, so no request is made.
 */
export function useDocumentsMatchingCount(term: string, hasOrganization: boolean) {
  const load = useCallback(
    () => (hasOrganization ? countDocumentsMatching(term) : Promise.resolve(0)),
    [term, hasOrganization],
  );
  return useAsyncData(load);
}
