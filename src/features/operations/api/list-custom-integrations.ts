import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { CustomIntegration } from '../lib/integration-view.ts';

/** The organisation's own integrations of one operations category, oldest first. */
export async function listCustomIntegrations(
  category: OperationsCategoryKey,
): Promise<CustomIntegration[]> {
  const { data, error } = await supabase()
    .from('custom_integrations')
    .select('*')
    .eq('operations_category', category)
    .order('created_at', { ascending: true });
  if (error) throw new Error(error.message);
  return data ?? [];
}
