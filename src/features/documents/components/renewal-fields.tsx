import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { FormField, Select, Textarea } from '../../../components/ui/form-field.tsx';
import type { DocumentRenewalFields } from '../../../lib/documents.ts';
import { useOrganizationMembers } from '../api/organization-members.ts';

/**
 * The responsible member (reminders go to them; by default the uploader) and the "renewal in
 * progress" marker with its note, which pauses the document's reminders until it is renewed.
 */
export function RenewalFields({
  values,
  onChange,
  disabled,
}: {
  values: DocumentRenewalFields;
  onChange: (values: DocumentRenewalFields) => void;
  disabled: boolean;
}) {
  const members = useOrganizationMembers();
  const listed = members.data ?? [];
  const current = values.responsible_id;
  return (
    <fieldset className="mt-4 space-y-3 border-t border-gray-100 pt-4">
      <legend className="text-sm font-medium text-gray-700">Renewal</legend>
      <FormField label="Responsible member" hint="Receives the reminders for this document.">
        {(props) => (
          <Select
            {...props}
            value={current ?? ''}
            disabled={disabled || members.isPending}
            onChange={(event) =>
              onChange({ ...values, responsible_id: event.target.value || null })
            }
          >
            <option value="">Nobody (the admins are reminded)</option>
            {current && !listed.some((member) => member.id === current) && (
              <option value={current}>A former member</option>
            )}
            {listed.map((member) => (
              <option key={member.id} value={member.id}>
                {member.full_name ? `${member.full_name} (${member.email})` : member.email}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <Checkbox
        checked={values.renewal_in_progress}
        disabled={disabled}
        onChange={(event) => onChange({ ...values, renewal_in_progress: event.target.checked })}
        label="Renewal in progress (pauses the reminders)"
      />
      {values.renewal_in_progress && (
        <FormField label="Renewal note (optional)">
          {(props) => (
            <Textarea
              {...props}
              rows={2}
              maxLength={1000}
              value={values.renewal_note ?? ''}
              disabled={disabled}
              onChange={(event) => onChange({ ...values, renewal_note: event.target.value })}
            />
          )}
        </FormField>
      )}
    </fieldset>
  );
}
