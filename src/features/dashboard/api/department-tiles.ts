import { useQuery } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';

export interface DepartmentTile {
  key: string;
  name: string;
}

/** The organisation's departments shown on the dashboard (not hidden), in their order. */
export async function listDepartmentTiles(): Promise<DepartmentTile[]> {
  const { data } = await succeeded(
    supabase()
      .from('departments')
      .select('key, name')
      .eq('hidden', false)
      .order('position')
      .order('name'),
  );
  return data;
}

// Keyed by the table, so the Settings page's changes refresh the tiles.
export const useDepartmentTiles = () =>
  useQuery({ queryKey: ['departments', 'tiles'], queryFn: listDepartmentTiles });
