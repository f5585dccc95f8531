import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  icon?: LucideIcon;
  /** Tailwind classes for the icon's tint, e.g. `text-blue-600 bg-blue-50`. */
  tone?: string;
  /** Optional small text under the value. */
  hint?: ReactNode;
}

/** One figure with its label: the counters of the dashboard, operations and department pages. */
export function StatCard({
  label,
  value,
  icon: Icon,
  tone = 'text-blue-600 bg-blue-50',
  hint,
}: StatCardProps) {
  return (
    <div className="flex items-center gap-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      {Icon && (
        <span className={`rounded-md p-2 ${tone}`} aria-hidden="true">
          <Icon className="h-6 w-6" />
        </span>
      )}
      <div className="min-w-0">
        <p className="text-sm font-medium text-gray-600">{label}</p>
        <p className="text-2xl font-semibold text-gray-900">{value}</p>
        {hint && <p className="text-xs text-gray-500">{hint}</p>}
      </div>
    </div>
  );
}
