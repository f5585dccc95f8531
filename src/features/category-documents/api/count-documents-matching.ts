import { supabase } from '../../../lib/supabase.ts';

/**
 * How many of the organisation's documents have a category or any tag containing `term`,
 * case-insensitively (rpc `count_documents_matching`): the Related Documents card of a category
 * page and the Documents card of a department page.
 */
export async function countDocumentsMatching(term: string): Promise<number> {
  const { data, error } = await supabase().rpc('count_documents_matching', { term });
  if (error) throw new Error(error.message);
  return Number(data ?? 0);
}
