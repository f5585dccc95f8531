import type { ReactNode } from 'react';

/**
 * The buttons at the foot of a dialog or form: the safe choice first (Cancel), the action last.
 * Side by side at the right on wider screens; stacked on a phone with the action on top, where
 * the thumb reaches it. `start` holds an action apart from the others at the left (Delete),
 * last on a phone.
 */
export function DialogActions({
  children,
  start,
  className = 'mt-6',
}: {
  children: ReactNode;
  start?: ReactNode;
  /** Space above; `mt-6` unless the form spaces its parts itself. */
  className?: string;
}) {
  const actions = <div className="flex flex-col-reverse gap-2 sm:flex-row">{children}</div>;
  return (
    <div
      className={`flex flex-col-reverse gap-2 sm:flex-row sm:items-center ${
        start ? 'sm:justify-between' : 'sm:justify-end'
      } ${className}`.trim()}
    >
      {start !== undefined && <div>{start}</div>}
      {actions}
    </div>
  );
}
