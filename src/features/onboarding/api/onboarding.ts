import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';

/** The first-run checklist: each step done or not, and whether admins put it away. */
export interface OnboardingStatus {
  team_invited: boolean;
  categories_reviewed: boolean;
  email_ready: boolean;
  documents_uploaded: boolean;
  dismissed: boolean;
}

export async function getOnboardingStatus(): Promise<OnboardingStatus> {
  const { data } = await succeeded(supabase().rpc('onboarding_status'));
  return data as unknown as OnboardingStatus;
}

// Its steps follow other tables (invitations, documents): read afresh whenever it is shown.
export const onboardingQueryOptions = () =>
  queryOptions({
    queryKey: ['organization_onboarding', 'status'],
    queryFn: getOnboardingStatus,
    staleTime: 0,
  });

export const useOnboardingStatus = () => useQuery(onboardingQueryOptions());

/** Ticks the review of categories and access, or puts the checklist away (admins). */
export async function updateOnboarding(step: 'categories_reviewed' | 'dismissed'): Promise<void> {
  await succeeded(supabase().rpc('update_onboarding', { step }));
}

export function useUpdateOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOnboarding,
    meta: { errorMessage: 'Failed to update the checklist' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organization_onboarding'] }),
  });
}
