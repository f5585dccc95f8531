import { isValid, parse } from 'date-fns';
import { Constants, type Enums } from '../../../lib/database.types.ts';
import type { CorporateStatus } from '../api/fetch-corporate-status.ts';
import type { CorporateStatusDetails } from '../api/save-corporate-status.ts';

/** The values the corporate status' check constraints allow, in their order. */
export const CORPORATE_ENTITY_TYPES = Constants.public.Enums.corporate_status_entity_type;
export const CORPORATE_STATUSES = Constants.public.Enums.corporate_status_status;
export const ANNUAL_REPORT_STATUSES = Constants.public.Enums.corporate_status_annual_report_status;
type CorporateEntityType = Enums<'corporate_status_entity_type'>;
type CorporateStatusValue = Enums<'corporate_status_status'>;
type AnnualReportStatus = Enums<'corporate_status_annual_report_status'>;

/** The corporate status form's fields, as typed (dates as `yyyy-MM-dd`, '' when not set). */
export interface CorporateStatusDraft {
  entity_name: string;
  entity_type: CorporateEntityType | '';
  status: CorporateStatusValue | '';
  filing_date: string;
  next_due_date: string;
  annual_report_status: AnnualReportStatus | '';
}

export type CorporateStatusDraftErrors = Partial<Record<keyof CorporateStatusDraft, string>>;

export function draftFromCorporateStatus(status: CorporateStatus | null): CorporateStatusDraft {
  return {
    entity_name: status?.entity_name ?? '',
    entity_type: status?.entity_type ?? '',
    status: status?.status ?? '',
    filing_date: status?.filing_date ?? '',
    next_due_date: status?.next_due_date ?? '',
    annual_report_status: status?.annual_report_status ?? '',
  };
}

function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && isValid(parse(value, 'yyyy-MM-dd', new Date()));
}

/**
 * Checks the Corporate Status Dashboard form: every field optional; the choices from the
 * specification's lists (§3); dates real calendar dates. Empty fields are saved as null.
 */
export function validateCorporateStatusDraft(
  draft: CorporateStatusDraft,
):
  | { ok: true; details: CorporateStatusDetails }
  | { ok: false; errors: CorporateStatusDraftErrors } {
  const errors: CorporateStatusDraftErrors = {};
  const entityName = draft.entity_name.trim();
  if (entityName.length > 300)
    errors.entity_name = 'Please keep the entity name under 300 characters.';
  if (draft.entity_type && !CORPORATE_ENTITY_TYPES.includes(draft.entity_type))
    errors.entity_type = 'Please choose an entity type from the list.';
  if (draft.status && !CORPORATE_STATUSES.includes(draft.status))
    errors.status = 'Please choose a status from the list.';
  if (draft.annual_report_status && !ANNUAL_REPORT_STATUSES.includes(draft.annual_report_status))
    errors.annual_report_status = 'Please choose an annual report status from the list.';
  if (draft.filing_date && !isCalendarDate(draft.filing_date))
    errors.filing_date = 'Please enter a valid date.';
  if (draft.next_due_date && !isCalendarDate(draft.next_due_date))
    errors.next_due_date = 'Please enter a valid date.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    details: {
      entity_name: entityName || null,
      entity_type: draft.entity_type || null,
      status: draft.status || null,
      filing_date: draft.filing_date || null,
      next_due_date: draft.next_due_date || null,
      annual_report_status: draft.annual_report_status || null,
    },
  };
}
