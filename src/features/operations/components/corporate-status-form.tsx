import type { CorporateStatus } from '../api/fetch-corporate-status.ts';
import type { CorporateStatusDetails } from '../api/save-corporate-status.ts';
import {
  ANNUAL_REPORT_STATUSES,
  CORPORATE_ENTITY_TYPES,
  CORPORATE_STATUSES,
  draftFromCorporateStatus,
  validateCorporateStatusDraft,
} from '../lib/corporate-status-draft.ts';
import { useDraftForm } from '../hooks/use-draft-form.ts';
import { FormField, fieldBorder, fieldClass } from './form-field.tsx';

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

/** Edit mode of the Corporate Status Dashboard (admins). */
export function CorporateStatusForm({ status, onSave, onCancel }: CorporateStatusFormProps) {
  const { draft, setField, errors, serverError, saving, submit } = useDraftForm(
    () => draftFromCorporateStatus(status),
    validateCorporateStatusDraft,
    onSave,
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
      <FormField label="Entity Name" error={errors.entity_name}>
        {(props) => (
          <input
            {...props}
            type="text"
            value={draft.entity_name}
            onChange={(event) => setField('entity_name', event.target.value)}
            className={`${fieldClass} ${fieldBorder(errors.entity_name)}`}
          />
        )}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        {SELECTS.map(({ field, label, options }) => (
          <FormField key={field} label={label} error={errors[field]}>
            {(props) => (
              <select
                {...props}
                value={draft[field]}
                onChange={(event) => setField(field, event.target.value)}
                className={`${fieldClass} ${fieldBorder(errors[field])} bg-white`}
              >
                <option value="">Not set</option>
                {options.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        ))}
        {DATES.map(({ field, label }) => (
          <FormField key={field} label={label} error={errors[field]}>
            {(props) => (
              <input
                {...props}
                type="date"
                value={draft[field]}
                onChange={(event) => setField(field, event.target.value)}
                className={`${fieldClass} ${fieldBorder(errors[field])}`}
              />
            )}
          </FormField>
        ))}
      </div>
      {serverError && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
        >
          Could not save the corporate status: {serverError}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button
          type="button"
          onClick={onCancel}
          disabled={saving}
          className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
        >
          Cancel
        </button>
        <button
          type="submit"
          disabled={saving}
          className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50"
        >
          {saving ? 'Saving...' : 'Save Status'}
        </button>
      </div>
    </form>
  );
}
