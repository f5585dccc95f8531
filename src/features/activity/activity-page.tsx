import { History } from 'lucide-react';
import { useState } from 'react';
import { ActivityList } from '../../components/activity-list.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { ACTIVITY_AREAS, type ActivityArea } from '../../lib/activity.ts';
import { errorMessage } from '../../lib/errors.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { ACTIVITY_PAGE_SIZE, useActivity, useMembers, type ActivityQuery } from './api/activity.ts';
import { TransferPanel } from './transfer-panel.tsx';
import { Card } from '../../components/ui/card.tsx';

/**
 * `/activity` (admins): the organisation's history, newest first, filterable by person, kind
 * and date, one page at a time from the database. Entries name people as they were named
 * then, after they were deactivated too. Below it, the export and import of the whole
 * organisation.
 */
export function ActivityPage() {
  const { profile, profileLoading } = useSession();
  if (profileLoading) return <Spinner />;
  if (!isAdminRole(profile?.role)) {
    return (
      <p className="text-sm text-gray-600">
        Access Restricted: You need admin privileges to read the activity.
      </p>
    );
  }
  return (
    <div className="space-y-8">
      <ActivityLog />
      <TransferPanel />
    </div>
  );
}

const FIELD =
  'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-primary-500 focus:ring-primary-500';

function ActivityLog() {
  const [query, setQuery] = useState<ActivityQuery>({
    actorId: null,
    area: null,
    from: null,
    to: null,
    page: 0,
  });
  const activity = useActivity(query);
  const members = useMembers();
  const filter = (change: Partial<ActivityQuery>) =>
    setQuery((current) => ({ ...current, ...change, page: 0 }));
  const pages = Math.max(1, Math.ceil((activity.data?.total ?? 0) / ACTIVITY_PAGE_SIZE));

  return (
    <div className="space-y-6">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-semibold text-gray-900">
          <History className="h-6 w-6 text-gray-500" aria-hidden="true" /> Activity
        </h1>
        <p className="text-sm text-gray-600">
          Every change in your organization: documents, members, connections and settings. Nobody
          can change or delete these entries.
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-4" role="group" aria-label="Filters">
        <label className="text-sm font-medium text-gray-700">
          Person
          <select
            className={FIELD}
            value={query.actorId ?? ''}
            onChange={(event) => filter({ actorId: event.target.value || null })}
          >
            <option value="">Everyone</option>
            {members.data?.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-gray-700">
          Kind
          <select
            className={FIELD}
            value={query.area ?? ''}
            onChange={(event) => filter({ area: (event.target.value || null) as ActivityArea })}
          >
            <option value="">All kinds</option>
            {Object.entries(ACTIVITY_AREAS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-gray-700">
          From
          <input
            type="date"
            className={FIELD}
            value={query.from ?? ''}
            onChange={(event) => filter({ from: event.target.value || null })}
          />
        </label>
        <label className="text-sm font-medium text-gray-700">
          To
          <input
            type="date"
            className={FIELD}
            value={query.to ?? ''}
            onChange={(event) => filter({ to: event.target.value || null })}
          />
        </label>
      </div>
      {activity.isPending && <Spinner label="Loading the activity..." />}
      {activity.isError && (
        <ErrorPanel title={`The activity could not be loaded: ${errorMessage(activity.error)}`} />
      )}
      {activity.data && activity.data.entries.length === 0 && (
        <p className="text-sm text-gray-600">No activity found.</p>
      )}
      {activity.data && activity.data.entries.length > 0 && (
        <Card padding="none" className="px-4">
          <ActivityList entries={activity.data.entries} label="Activity" />
        </Card>
      )}
      {activity.data && activity.data.total > ACTIVITY_PAGE_SIZE && (
        <nav aria-label="Pages" className="flex items-center justify-between text-sm text-gray-600">
          <Button
            variant="secondary"
            size="sm"
            disabled={query.page === 0}
            onClick={() => setQuery((current) => ({ ...current, page: current.page - 1 }))}
          >
            Previous
          </Button>
          <span>
            Page {query.page + 1} of {pages} ({activity.data.total} entries)
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={query.page + 1 >= pages}
            onClick={() => setQuery((current) => ({ ...current, page: current.page + 1 }))}
          >
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}
