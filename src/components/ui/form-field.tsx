import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';

/** The look of a text field, select or text area; red while it holds an error. */
export function controlClass(invalid = false): string {
  return `block w-full rounded-md border px-3 py-2 text-sm shadow-sm focus:ring-2 focus:outline-none disabled:bg-gray-100 ${
    invalid
      ? 'border-destructive-500 focus:ring-destructive-500/30'
      : 'border-gray-300 focus:border-primary-500 focus:ring-primary-500/30'
  }`;
}

type Invalid = { invalid?: boolean };

export function Input({ invalid, className = '', ...props }: ComponentProps<'input'> & Invalid) {
  return <input {...props} className={`${controlClass(invalid)} ${className}`} />;
}

export function Select({ invalid, className = '', ...props }: ComponentProps<'select'> & Invalid) {
  return <select {...props} className={`${controlClass(invalid)} bg-white ${className}`} />;
}

export function Textarea({
  invalid,
  className = '',
  ...props
}: ComponentProps<'textarea'> & Invalid) {
  return <textarea {...props} className={`${controlClass(invalid)} ${className}`} />;
}

/** What a field's control must carry to be labelled, described and marked invalid. */
export interface FieldControlProps {
  id: string;
  invalid: boolean;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
  'aria-required': boolean | undefined;
}

export interface FormFieldProps {
  label: ReactNode;
  /** Shown under the field and linked to it for screen readers. */
  error?: string | null;
  hint?: ReactNode;
  /** Marks the label with a star and the control with `aria-required`. */
  required?: boolean;
  /** The label is read by screen readers only (a search box with a placeholder). */
  hideLabel?: boolean;
  className?: string;
  /** Renders the control with the ids and states it must carry. */
  children: (props: FieldControlProps) => ReactNode;
}

/**
 * A labelled form control with its hint and error message: the label points at the control,
 * the hint and the error describe it, and an error marks it invalid.
 */
export function FormField({
  label,
  error,
  hint,
  required = false,
  hideLabel = false,
  className,
  children,
}: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label
        htmlFor={id}
        className={hideLabel ? 'sr-only' : 'mb-1 block text-sm font-medium text-gray-700'}
      >
        {label}
        {required && (
          <span aria-hidden="true" className="text-destructive-600">
            {' '}
            *
          </span>
        )}
      </label>
      {children({
        id,
        invalid: Boolean(error),
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy || undefined,
        'aria-required': required || undefined,
      })}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-gray-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-destructive-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** What a form found wrong when it was sent, by field, in the words to show under each. */
export type FieldProblems<Field extends string> = Partial<Record<Field, string>>;

/**
 * The problems a form found when it was sent, shown under their fields (`FormField`'s
 * `error`): `report(problems)` on sending, which also puts the focus on the first field in
 * error so that a screen reader reads its label and error; `clear(field)` when a field
 * changes, so its message goes as it is corrected (and the focus stays where the person types).
 * Attach `formRef` to the form.
 */
export function useFormProblems<Field extends string>() {
  const formRef = useRef<HTMLFormElement>(null);
  const [state, setState] = useState<{ problems: FieldProblems<Field> | null; sent: number }>({
    problems: null,
    sent: 0,
  });
  const focusedFor = useRef(0);
  const { problems, sent } = state;
  useEffect(() => {
    if (sent === focusedFor.current) return;
    focusedFor.current = sent;
    if (problems) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problems, sent]);

  /** Shows what was found (nothing: clears them all); true when there is something. */
  const report = useCallback((found: FieldProblems<Field> | null): boolean => {
    const any = found !== null && Object.values(found).some(Boolean);
    setState((current) => ({ problems: any ? found : null, sent: current.sent + 1 }));
    return any;
  }, []);
  const clear = useCallback((...fields: Field[]) => {
    setState((current) => {
      if (!current.problems || !fields.some((field) => current.problems?.[field])) return current;
      const rest = { ...current.problems };
      for (const field of fields) delete rest[field];
      return { ...current, problems: Object.keys(rest).length > 0 ? rest : null };
    });
  }, []);

  return { formRef, problems, report, clear };
}
