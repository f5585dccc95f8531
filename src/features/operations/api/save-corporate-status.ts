import { supabase } from '../../../lib/supabase.ts';
import type { CorporateStatus } from './fetch-corporate-status.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The fields an admin edits; `last_updated` is set by the server. */
export type CorporateStatusDetails = Omit<CorporateStatus, 'organization_id' | 'last_updated'>;

/** Saves the organisation's corporate status (one row per organisation) and returns it. */
export async function saveCorporateStatus(
  organizationId: string,
  details: CorporateStatusDetails,
): Promise<CorporateStatus> {
  const { data } = await succeeded(
    supabase()
      .from('corporate_status')
      .upsert({ organization_id: organizationId, ...details }, { onConflict: 'organization_id' })
      .select('*')
      .single(),
  );
  return data;
}
