import { useId, type ReactNode } from 'react';

export const fieldClass =
  'mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm focus:ring-2 focus:ring-blue-500 focus:outline-none';

/** The border of an input: red while it has an error. */
export function fieldBorder(error: string | undefined): string {
  return error ? 'border-red-500' : 'border-gray-300 focus:border-blue-500';
}

export interface FormFieldProps {
  label: string;
  /** Shown under the field and linked to it for screen readers. */
  error?: string;
  hint?: string;
  /** Renders the control with the ids it must carry. */
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}

/** A labelled form control with its hint and error message (the forms of the operations pages). */
export function FormField({ label, error, hint, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-gray-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
