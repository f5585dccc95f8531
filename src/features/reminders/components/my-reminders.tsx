import { Bell } from 'lucide-react';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useMailDelivery } from '../../../lib/mail-delivery.ts';

/** Said under the choice while this installation keeps e-mail in the Outbox (no SMTP). */
export const REMINDERS_NOT_EMAILED =
  'E-mail is not set up on this installation, so reminders are not e-mailed until an administrator sets it up. The expiring documents are on the Dashboard and in your calendar below.';
import { useEmailReminders, useSetEmailReminders } from '../api/my-reminders.ts';

/** One's own reminder e-mails, on or off. */
export function MyReminders({ userId }: { userId: string }) {
  const reminders = useEmailReminders(userId);
  const save = useSetEmailReminders(userId);
  const delivery = useMailDelivery();
  return (
    <Card as="section" aria-labelledby="my-reminders">
      <h2 id="my-reminders" className="flex items-center gap-2 text-lg font-semibold text-gray-900">
        <Bell className="h-5 w-5 text-gray-500" aria-hidden="true" /> My reminders
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        Once a day, Steward e-mails you the documents you look after that are about to expire or are
        overdue.
      </p>
      {reminders.isError ? (
        <div className="mt-3">
          <ErrorPanel title={errorMessage(reminders.error)} />
        </div>
      ) : (
        <Checkbox
          className="mt-3"
          checked={reminders.data ?? true}
          disabled={reminders.isPending || save.isPending}
          onChange={(event) => save.mutate(event.target.checked)}
          label="E-mail me reminders"
        />
      )}
      {delivery.data === 'outbox' && (
        <p
          role="status"
          data-tone="warning"
          className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900"
        >
          {REMINDERS_NOT_EMAILED}
        </p>
      )}
    </Card>
  );
}
