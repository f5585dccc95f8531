import { supabase } from '../../../lib/supabase.ts';

/** Removes one of the organisation's own integrations. */
export async function deleteCustomIntegration(id: string): Promise<void> {
  const { data, error } = await supabase()
    .from('custom_integrations')
    .delete()
    .eq('id', id)
    .select('id');
  if (error) throw new Error(error.message);
  if (!data || data.length === 0) throw new Error('This integration could not be deleted.');
}
