import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Saves a master admin's edit of one of the organisation's own integrations. */
export async function updateCustomIntegration(
  id: string,
  details: IntegrationDetails,
): Promise<void> {
  const { data } = await succeeded(
    supabase().from('custom_integrations').update(details).eq('id', id).select('id'),
  );
  // Row-level security hides a row the caller may not change: nothing updated is a failure.
  if (!data || data.length === 0) throw new Error('This integration could not be updated.');
}
