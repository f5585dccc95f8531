import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Removes one of the organisation's own integrations. */
export async function deleteCustomIntegration(id: string): Promise<void> {
  const { data } = await succeeded(
    supabase().from('custom_integrations').delete().eq('id', id).select('id'),
  );
  if (!data || data.length === 0) throw new Error('This integration could not be deleted.');
}
