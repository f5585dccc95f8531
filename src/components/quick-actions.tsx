import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Card } from './ui/card.tsx';

export interface QuickAction {
  label: string;
  icon: LucideIcon;
  /** A route to open, or… */
  to?: string;
  /** …something to do on click. */
  onClick?: () => void;
}

const actionClass =
  'flex w-full items-center gap-3 rounded-md border border-gray-200 px-4 py-3 text-left text-sm font-medium text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600';

/** The Quick Actions panel of the category and department pages. */
export function QuickActions({ actions }: { actions: readonly QuickAction[] }) {
  const headingId = useId();
  return (
    <Card as="section" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-gray-900">
        Quick Actions
      </h2>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
        {actions.map(({ label, icon: Icon, to, onClick }) => (
          <li key={label}>
            {to ? (
              <Link to={to} className={actionClass}>
                <Icon className="h-5 w-5 text-gray-500" aria-hidden="true" />
                {label}
              </Link>
            ) : (
              <button type="button" onClick={onClick} className={actionClass}>
                <Icon className="h-5 w-5 text-gray-500" aria-hidden="true" />
                {label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
