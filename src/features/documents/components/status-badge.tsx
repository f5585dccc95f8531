import { AlertCircle, CheckCircle2, Clock } from 'lucide-react';

/**
 * A document's status (spec §4): green for Active, yellow for Expiring Soon, red for anything
 * else. The status text and a distinct icon carry the meaning too, never the colour alone.
 */
export function StatusBadge({ status }: { status: string }) {
  const { tone, Icon } =
    status === 'Active'
      ? { tone: 'bg-green-100 text-green-800', Icon: CheckCircle2 }
      : status === 'Expiring Soon'
        ? { tone: 'bg-yellow-100 text-yellow-800', Icon: Clock }
        : { tone: 'bg-red-100 text-red-800', Icon: AlertCircle };
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tone}`}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {status}
    </span>
  );
}
