import { AlertCircle, CheckCircle2, Clock } from 'lucide-react';

/**
 * A document's status (spec §4): green for Active, yellow for Expiring Soon, red for anything
 * else. The status text and a distinct icon carry the meaning too, never the colour alone.
 */
export function StatusBadge({ status }: { status: string }) {
  const { tone, Icon } =
    status === 'Active'
      ? { tone: 'status-active', Icon: CheckCircle2 }
      : status === 'Expiring Soon'
        ? { tone: 'status-expiring', Icon: Clock }
        : { tone: 'status-other', Icon: AlertCircle };
  return (
    <span
      data-tone={tone}
      className="inline-flex items-center gap-1 rounded-full bg-tone-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-tone-800"
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {status}
    </span>
  );
}
