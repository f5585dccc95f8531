import { useMutation, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';

export interface OrganizationChange {
  name: string;
  timeZone: string;
}

/** Renames the organisation and sets the time zone its reminders are sent in (admins). */
export async function updateOrganization({ name, timeZone }: OrganizationChange): Promise<void> {
  await succeeded(supabase().rpc('update_organization', { name, time_zone: timeZone }));
}

/** `onSaved` reloads the session's organisation, so the bar shows the new name. */
export function useUpdateOrganization(onSaved: () => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    meta: { errorMessage: 'Failed to save the organization settings' },
    onSuccess: async () => {
      await onSaved();
      await queryClient.invalidateQueries({ queryKey: ['reminder_settings'] });
    },
  });
}
