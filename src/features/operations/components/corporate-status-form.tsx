import type { CorporateStatus } from '../api/fetch-corporate-status.ts';
import type { CorporateStatusDetails } from '../api/save-corporate-status.ts';
import {
  ANNUAL_REPORT_STATUSES,
  CORPORATE_ENTITY_TYPES,
  CORPORATE_STATUSES,
  draftFromCorporateStatus,
  validateCorporateStatusDraft,
} from '../lib/corporate-status-draft.ts';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import { useDraftForm } from '../hooks/use-draft-form.ts';

export interface CorporateStatusFormProps {
  status: CorporateStatus | null;
  onSave: (details: CorporateStatusDetails) => Promise<void>;
  onCancel: () => void;
}

const SELECTS = [
  { field: 'entity_type', label: 'Entity Type', options: CORPORATE_ENTITY_TYPES },
  { field: 'status', label: 'Status', options: CORPORATE_STATUSES },
  { field: 'annual_report_status', label: 'Annual Report Status', options: ANNUAL_REPORT_STATUSES },
] as const;

const DATES = [
  { field: 'filing_date', label: 'Filing Date' },
  { field: 'next_due_date', label: 'Next Due Date' },
] as const;

/** Asked before the page is left with the status changed but not saved. */
export const UNSAVED_STATUS_QUESTION =
  'You have changed the corporate status without saving it. Leave without saving?';

/** Edit mode of the Corporate Status Dashboard (admins). */
export function CorporateStatusForm({ status, onSave, onCancel }: CorporateStatusFormProps) {
  const { draft, setField, errors, saving, changed, submit } = useDraftForm(
    () => draftFromCorporateStatus(status),
    validateCorporateStatusDraft,
    onSave,
    'Could not save the corporate status',
  );
  useLeaveGuard(changed, UNSAVED_STATUS_QUESTION);

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Entity Name" error={errors.entity_name}>
        {(props) => (
          <Input
            {...props}
            type="text"
            value={draft.entity_name}
            onChange={(event) => setField('entity_name', event.target.value)}
          />
        )}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        {SELECTS.map(({ field, label, options }) => (
          <FormField key={field} label={label} error={errors[field]}>
            {(props) => (
              <Select
                {...props}
                value={draft[field]}
                onChange={(event) => setField(field, event.target.value)}
              >
                <option value="">Not set</option>
                {options.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        ))}
        {DATES.map(({ field, label }) => (
          <FormField key={field} label={label} error={errors[field]}>
            {(props) => (
              <Input
                {...props}
                type="date"
                value={draft[field]}
                onChange={(event) => setField(field, event.target.value)}
              />
            )}
          </FormField>
        ))}
      </div>
      <DialogActions className="">
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" busy={saving} busyLabel="Saving...">
          Save Status
        </Button>
      </DialogActions>
    </form>
  );
}
