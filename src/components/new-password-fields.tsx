import type { NewPasswordField } from '../lib/passwords.ts';
import { PasswordInput } from './password-input.tsx';
import { FormField, type FieldProblems } from './ui/form-field.tsx';

/** A new password and its repetition, as typed. */
export interface NewPasswordValue {
  password: string;
  confirmation: string;
}

export const EMPTY_NEW_PASSWORD: NewPasswordValue = { password: '', confirmation: '' };

export interface NewPasswordFieldsProps {
  value: NewPasswordValue;
  onChange: (next: NewPasswordValue) => void;
  /** The first field's label: "New Password" unless the page says otherwise. */
  passwordLabel?: string;
  /** The second field's label: "Confirm Password" unless the page says otherwise. */
  confirmationLabel?: string;
  /** What `passwordProblem` found when the form was sent, shown under its field. */
  problems?: FieldProblems<NewPasswordField> | null;
}

/**
 * The two fields of a new password (invitation acceptance, a reset link, the profile), each
 * with a show/hide toggle and the browser's `new-password` autofill. The form checks them with
 * `passwordProblem` (spec §5) when it is sent, and the problem shows under its field.
 */
export function NewPasswordFields({
  value,
  onChange,
  passwordLabel = 'New Password',
  confirmationLabel = 'Confirm Password',
  problems = null,
}: NewPasswordFieldsProps) {
  const fields = [
    [passwordLabel, 'password'],
    [confirmationLabel, 'confirmation'],
  ] as const;
  return (
    <>
      {fields.map(([label, key]) => (
        <FormField key={key} label={label} error={problems?.[key]}>
          {(field) => (
            <PasswordInput
              {...field}
              value={value[key]}
              onChange={(event) => onChange({ ...value, [key]: event.target.value })}
              autoComplete="new-password"
              required
            />
          )}
        </FormField>
      ))}
    </>
  );
}
