import { useId, type ComponentProps, type ReactNode } from 'react';

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type'> {
  /** What ticking it means, e.g. "Send invitation by e-mail". */
  label: ReactNode;
  /** More about it, under the label, linked to the box for screen readers. */
  hint?: ReactNode;
  /** The label is read by screen readers only (a row's "Select Budget.pdf"). */
  hideLabel?: boolean;
}

/**
 * A check box with its label beside it: the whole label is the click target, and the box keeps
 * the theme's colour and a visible focus ring. The hint sits outside the label, so it
 * describes the box without becoming part of its name.
 */
export function Checkbox({
  label,
  hint,
  hideLabel = false,
  className = '',
  ...props
}: CheckboxProps) {
  const hintId = useId();
  return (
    <div className={className}>
      <label className="flex items-start gap-2 text-sm text-gray-700 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60">
        <input
          {...props}
          type="checkbox"
          aria-describedby={hint ? hintId : props['aria-describedby']}
          className="mt-0.5 h-4 w-4 shrink-0 rounded border-gray-300 accent-primary-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600"
        />
        <span className={hideLabel ? 'sr-only' : 'min-w-0'}>{label}</span>
      </label>
      {hint && (
        <p id={hintId} className="mt-0.5 ml-6 text-xs text-gray-500">
          {hint}
        </p>
      )}
    </div>
  );
}
