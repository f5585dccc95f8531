import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database.types.ts';
import { accountKeys } from '../../../lib/session-api.ts';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Creates an organisation; the caller becomes its master admin (rpc `create_organization`). */
export async function createOrganization(name: string): Promise<Tables<'organizations'>> {
  const { data } = await succeeded(supabase().rpc('create_organization', { name }));
  return data;
}

/**
 * Creating the organisation. The creator's profile changed (organisation, role): it is loaded
 * again before the mutation settles, so the whole app (the navigation's role badge, the admin
 * links, the pages) sees the new master admin at once.
 */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    meta: { errorMessage: 'Failed to create organization' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}
