import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';

/** Creates an organisation; the caller becomes its master admin (rpc `create_organization`). */
export async function createOrganization(name: string): Promise<Tables<'organizations'>> {
  const { data, error } = await supabase().rpc('create_organization', { name });
  if (error) throw new Error(error.message);
  return data;
}
