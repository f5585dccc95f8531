import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';

/** The four dashboard counters (rpc `document_stats`, docs/data-model.md). */
export interface DocumentStats {
  total: number;
  expiringSoon: number;
  overdue: number;
  categories: number;
}

/** What the dashboard's two lists show of a document. */
export type DashboardDocument = Pick<
  Tables<'documents'>,
  'id' | 'name' | 'category' | 'size' | 'created_at' | 'expiry_date' | 'file_path'
>;

const LIST_COLUMNS = 'id, name, category, size, created_at, expiry_date, file_path';

/** How many documents each dashboard list shows (spec §9). */
export const DASHBOARD_LIST_SIZE = 5;

/**
 * The counters, computed by the database over the caller's organisation: Total Documents,
 * Expiring Soon (today up to 30 days ahead), Overdue (before today) and Categories in use.
 */
export async function fetchDocumentStats(signal?: AbortSignal): Promise<DocumentStats> {
  let query = supabase().rpc('document_stats');
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw new Error(error.message || 'Failed to load document statistics');
  const row = (Array.isArray(data) ? data[0] : data) ?? null;
  return {
    total: row?.total ?? 0,
    expiringSoon: row?.expiring_soon ?? 0,
    overdue: row?.overdue ?? 0,
    categories: row?.categories ?? 0,
  };
}

/** The five newest documents. */
export async function listRecentDocuments(signal?: AbortSignal): Promise<DashboardDocument[]> {
  let query = supabase()
    .from('documents')
    .select(LIST_COLUMNS)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(DASHBOARD_LIST_SIZE);
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw new Error(error.message || 'Failed to load recent documents');
  return data ?? [];
}

/** The five documents whose expiry date comes first (overdue ones included, oldest first). */
export async function listUpcomingRenewals(signal?: AbortSignal): Promise<DashboardDocument[]> {
  let query = supabase()
    .from('documents')
    .select(LIST_COLUMNS)
    .not('expiry_date', 'is', null)
    .order('expiry_date', { ascending: true })
    .order('id', { ascending: true })
    .limit(DASHBOARD_LIST_SIZE);
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query;
  if (error) throw new Error(error.message || 'Failed to load upcoming renewals');
  return data ?? [];
}
