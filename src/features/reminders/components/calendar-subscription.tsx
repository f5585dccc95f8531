import { CalendarDays } from 'lucide-react';
import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import type { CalendarFeedScope } from '../api/calendar-feed.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import {
  useCalendarFeed,
  useCreateCalendarFeed,
  useRevokeCalendarFeed,
} from '../api/calendar-feed.ts';

/**
 * A secret calendar address of the organisation's expiry dates (or only one's own), for a
 * calendar application to subscribe to. Shown once when made: only its hash is kept.
 */
export function CalendarSubscription({ userId }: { userId: string }) {
  const feed = useCalendarFeed(userId);
  const create = useCreateCalendarFeed(userId);
  const revoke = useRevokeCalendarFeed(userId);
  const { confirm } = useFeedback();
  const [scope, setScope] = useState<CalendarFeedScope>('all');
  const [address, setAddress] = useState<string | null>(null);

  const make = () => create.mutate(scope, { onSuccess: setAddress });
  const remove = async () => {
    const sure = await confirm(
      'Remove your calendar address? Calendars subscribed to it stop showing the expiry dates.',
      { confirmLabel: 'Remove', destructive: true },
    );
    if (sure) revoke.mutate(undefined, { onSuccess: () => setAddress(null) });
  };

  return (
    <Card as="section" aria-labelledby="calendar-subscription">
      <h2
        id="calendar-subscription"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <CalendarDays className="h-5 w-5 text-gray-500" aria-hidden="true" /> Calendar
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        Subscribe to the expiry dates from your calendar application (Outlook, Google Calendar,
        Apple Calendar). Calendar applications refresh a subscription only every few hours, so a
        change may take that long to show: the reminder e-mails stay the ones to rely on.
      </p>
      {feed.data && !address && (
        <p className="mt-3 text-sm text-gray-700">
          You have a calendar address ({feed.data.scope === 'all' ? 'all documents' : 'only yours'}
          ), made {formatDateTime(feed.data.created_at)}
          {feed.data.last_fetched_at
            ? `, last read by a calendar ${formatDateTime(feed.data.last_fetched_at)}`
            : ', not read by a calendar yet'}
          . For your security it is shown only when it is made: make a new one to see it again (the
          old one then stops working).
        </p>
      )}
      {address && (
        <FormField label="Your calendar address (keep it private)" className="mt-3">
          {(props) => (
            <Input {...props} readOnly value={address} onFocus={(e) => e.target.select()} />
          )}
        </FormField>
      )}
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <FormField label="Show" className="sm:w-56">
          {(props) => (
            <Select
              {...props}
              value={scope}
              onChange={(event) => setScope(event.target.value === 'mine' ? 'mine' : 'all')}
            >
              <option value="all">All documents</option>
              <option value="mine">Only documents I am responsible for</option>
            </Select>
          )}
        </FormField>
        <Button onClick={make} busy={create.isPending} busyLabel="Making...">
          {feed.data ? 'Make a new address' : 'Make my calendar address'}
        </Button>
        {feed.data && (
          <Button
            variant="destructive-outline"
            onClick={() => void remove()}
            busy={revoke.isPending}
            busyLabel="Removing..."
          >
            Remove address
          </Button>
        )}
      </div>
      {feed.isError && (
        <div className="mt-3">
          <ErrorPanel title={errorMessage(feed.error)} />
        </div>
      )}
    </Card>
  );
}
