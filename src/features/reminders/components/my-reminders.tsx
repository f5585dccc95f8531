import { Bell } from 'lucide-react';
import { FormError } from '../../../components/ui/form-error.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useEmailReminders, useSetEmailReminders } from '../api/my-reminders.ts';

/** One's own reminder e-mails, on or off. */
export function MyReminders({ userId }: { userId: string }) {
  const reminders = useEmailReminders(userId);
  const save = useSetEmailReminders(userId);
  return (
    <section
      aria-labelledby="my-reminders"
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
    >
      <h2 id="my-reminders" className="flex items-center gap-2 text-lg font-semibold text-gray-900">
        <Bell className="h-5 w-5 text-gray-500" aria-hidden="true" /> My reminders
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        Once a day, Steward e-mails you the documents you look after that are about to expire or are
        overdue.
      </p>
      <label className="mt-3 flex items-center gap-2 text-sm text-gray-800">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-gray-300 accent-primary-600"
          checked={reminders.data ?? true}
          disabled={reminders.isPending || save.isPending}
          onChange={(event) => save.mutate(event.target.checked)}
        />
        E-mail me reminders
      </label>
      <FormError>
        {reminders.isError
          ? errorMessage(reminders.error)
          : save.isError
            ? errorMessage(save.error)
            : null}
      </FormError>
    </section>
  );
}
