import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Tone } from './ui/tone.ts';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  icon?: LucideIcon;
  /** The icon's tone (tailwind.config.js). */
  tone?: Tone;
  /** Optional small text under the value. */
  hint?: ReactNode;
  /** Makes the card a link to where its figure comes from. */
  to?: string;
}

/** One figure with its label: the counters of the dashboard, operations and department pages. */
export function StatCard({ label, value, icon: Icon, tone = 'blue', hint, to }: StatCardProps) {
  const content = (
    <>
      {Icon && (
        <span
          data-tone={tone}
          className="rounded-md bg-tone-50 p-2 text-tone-700"
          aria-hidden="true"
        >
          <Icon className="h-6 w-6" />
        </span>
      )}
      <div className="min-w-0">
        <p className="text-sm font-medium text-gray-600">{label}</p>
        <p className="text-2xl font-semibold text-gray-900">{value}</p>
        {hint && <p className="text-xs text-gray-500">{hint}</p>}
      </div>
    </>
  );
  const box = 'flex items-center gap-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm';
  if (to) {
    return (
      <Link
        to={to}
        className={`${box} hover:border-primary-300 hover:bg-primary-50 focus-visible:outline-2 focus-visible:outline-primary-600`}
      >
        {content}
      </Link>
    );
  }
  return <div className={box}>{content}</div>;
}
