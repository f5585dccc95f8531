import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { Tables } from '../../../lib/database.types.ts';
import { operationsKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

export type CorporateStatus = Tables<'corporate_status'>;

/** The organisation's Corporate Status Dashboard record; null until an admin saves one. */
export async function fetchCorporateStatus(): Promise<CorporateStatus | null> {
  const { data } = await succeeded(supabase().from('corporate_status').select('*').maybeSingle());
  return data;
}

export const corporateStatusQueryOptions = () =>
  queryOptions({ queryKey: operationsKeys.corporateStatus(), queryFn: fetchCorporateStatus });

export function useCorporateStatusQuery({ enabled }: { enabled: boolean }) {
  return useQuery({ ...corporateStatusQueryOptions(), enabled });
}
