import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { operationsKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** How many documents the organisation has (the Operations Center's Documents card). */
export async function countDocuments(): Promise<number> {
  const { count } = await succeeded(
    supabase().from('documents').select('id', { count: 'exact', head: true }),
  );
  return count ?? 0;
}

export const documentCountQueryOptions = () =>
  queryOptions({ queryKey: operationsKeys.documentCount(), queryFn: countDocuments });

export function useDocumentCount({ enabled }: { enabled: boolean }) {
  return useQuery({ ...documentCountQueryOptions(), enabled });
}
