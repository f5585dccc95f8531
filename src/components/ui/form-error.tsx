import { AlertTriangle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * Why a form could not be sent or saved ("Could not save: …"), announced as it appears.
 * Renders nothing without a message, so a form can always place it.
 */
export function FormError({
  children,
  className = '',
}: {
  children?: ReactNode;
  className?: string;
}) {
  if (!children) return null;
  return (
    <p
      role="alert"
      data-tone="danger"
      className={`rounded-md border border-tone-200 bg-tone-50 p-3 text-sm break-words text-tone-800 ${className}`}
    >
      {children}
    </p>
  );
}

export interface ErrorPanelProps {
  /** The first line, e.g. the specification's "Error loading documents: {message}". */
  title: ReactNode;
  /** More about what happened or what to do. */
  children?: ReactNode;
  /** Buttons: Try again, Download File… */
  actions?: ReactNode;
  icon?: LucideIcon;
  /** `centered` for a panel that stands in for a whole view (a preview that failed). */
  layout?: 'inline' | 'centered';
  /** The title is the heading of a view (level 3, inside a dialog's level-2 title). */
  heading?: boolean;
}

/** Something could not be loaded: an alert with the reason and what the user can do next. */
export function ErrorPanel({
  title,
  children,
  actions,
  icon: Icon = AlertTriangle,
  layout = 'inline',
  heading = false,
}: ErrorPanelProps) {
  const centered = layout === 'centered';
  const Title = heading ? 'h3' : 'p';
  return (
    <div
      role="alert"
      data-tone="danger"
      className={`rounded-lg border border-tone-200 bg-tone-50 ${
        centered
          ? 'flex flex-col items-center gap-3 px-6 py-10 text-center'
          : 'flex items-start gap-3 p-4'
      }`}
    >
      <Icon
        className={`shrink-0 text-tone-500 ${centered ? 'h-10 w-10' : 'mt-0.5 h-5 w-5'}`}
        aria-hidden="true"
      />
      <div className="min-w-0">
        <Title
          className={`font-medium break-words ${centered ? 'text-gray-900' : 'text-tone-800'}`}
        >
          {title}
        </Title>
        {children && (
          <div className={`mt-1 text-sm ${centered ? 'text-gray-700' : 'text-tone-700'}`}>
            {children}
          </div>
        )}
        {actions && (
          <div className={`mt-3 flex flex-wrap gap-2 ${centered ? 'justify-center' : ''}`}>
            {actions}
          </div>
        )}
      </div>
    </div>
  );
}
