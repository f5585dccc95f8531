import { Spinner } from '../../components/ui/spinner.tsx';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { CalendarSubscription } from './components/calendar-subscription.tsx';
import { MyReminders } from './components/my-reminders.tsx';
import { ReminderSettingsForm } from './components/reminder-settings-form.tsx';

/** `/reminders`: one's own reminder e-mails and calendar; admins also set the organisation's. */
export function RemindersPage() {
  const { user, profile, organization, profileLoading } = useSession();
  if (profileLoading) return <Spinner />;
  if (!user || !organization || !profile) {
    return <p className="text-sm text-gray-600">No organization found.</p>;
  }
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-gray-900">Reminders</h1>
        <p className="text-sm text-gray-600">
          Expiry dates you are reminded of by e-mail, and in your calendar.
        </p>
      </div>
      <MyReminders userId={user.id} />
      <CalendarSubscription userId={user.id} />
      {isAdminRole(profile.role) && <ReminderSettingsForm organizationId={organization.id} />}
    </div>
  );
}
