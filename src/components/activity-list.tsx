import { actorOf, changesOf, describeActivity, type ActivityEntry } from '../lib/activity.ts';
import { formatDateTime } from '../lib/format.ts';

/**
 * Entries of the history, newest first: what happened, each changed property with its old and
 * new value, who did it (by their name then) and when. Shared by a document's History and the
 * Activity page.
 */
export function ActivityList({ entries, label }: { entries: ActivityEntry[]; label: string }) {
  return (
    <ol aria-label={label} className="divide-y divide-gray-100">
      {entries.map((entry) => {
        const changes = changesOf(entry);
        return (
          <li key={entry.id} className="py-2" data-kind={entry.kind}>
            <p className="text-sm text-gray-900">{describeActivity(entry)}</p>
            {changes.length > 0 && (
              <ul className="mt-0.5 text-xs text-gray-700">
                {changes.map((change) => (
                  <li key={change}>{change}</li>
                ))}
              </ul>
            )}
            <p className="text-xs text-gray-500">
              {actorOf(entry)} · {formatDateTime(entry.occurred_at)}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
