import { PasswordInput } from './password-input.tsx';
import { FormField } from './ui/form-field.tsx';

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
}

/**
 * The two fields of a new password (invitation acceptance, a reset link, the profile), each
 * with a show/hide toggle and the browser's `new-password` autofill. The form checks them with
 * `passwordProblem` (spec §5) when it is sent.
 */
export function NewPasswordFields({
  value,
  onChange,
  passwordLabel = 'New Password',
  confirmationLabel = 'Confirm Password',
}: NewPasswordFieldsProps) {
  const fields = [
    [passwordLabel, 'password'],
    [confirmationLabel, 'confirmation'],
  ] as const;
  return (
    <>
      {fields.map(([label, key]) => (
        <FormField key={key} label={label}>
          {({ invalid: _invalid, ...field }) => (
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
