import type { Tables } from '../../../lib/database.types.ts';

/** What the dashboard's two lists show of a document. */
export type DashboardDocument = Pick<
  Tables<'documents'>,
  'id' | 'name' | 'category' | 'size' | 'created_at' | 'expiry_date' | 'file_path'
>;

export const LIST_COLUMNS = 'id, name, category, size, created_at, expiry_date, file_path';

/** How many documents each dashboard list shows (spec §9). */
export const DASHBOARD_LIST_SIZE = 5;
