import { Settings } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { FormField, Input, Select, useFormProblems } from '../../../components/ui/form-field.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import type { ReminderRecipients } from '../api/reminder-settings.ts';
import type { ReminderSettings } from '../api/reminder-settings.ts';
import { useReminderSettings, useSaveReminderSettings } from '../api/reminder-settings.ts';

/** "30, 7, 1" → [30, 7, 1]; null when something is not a whole number of days 0–365. */
export function parseDays(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const days = parts.map(Number);
  if (days.some((day) => !Number.isInteger(day) || day < 0 || day > 365) || days.length > 10) {
    return null;
  }
  return days;
}

/** The organisation's reminder settings (admins). */
export function ReminderSettingsForm({ organizationId }: { organizationId: string }) {
  const settings = useReminderSettings(organizationId);
  if (settings.isPending) return <Spinner label="Loading the reminder settings..." />;
  if (settings.isError) return <ErrorPanel title={errorMessage(settings.error)} />;
  return <SettingsForm organizationId={organizationId} initial={settings.data} />;
}

function SettingsForm({
  organizationId,
  initial,
}: {
  organizationId: string;
  initial: ReminderSettings;
}) {
  const save = useSaveReminderSettings(organizationId);
  const [days, setDays] = useState(initial.days_before.join(', '));
  const [overdue, setOverdue] = useState(initial.remind_overdue);
  const [hour, setHour] = useState(String(initial.send_hour));
  const [timeZone, setTimeZone] = useState(initial.time_zone);
  const [recipients, setRecipients] = useState<ReminderRecipients>(initial.recipients);
  const { formRef, problems, report, clear } = useFormProblems<'days'>();
  const zones =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseDays(days);
    report({
      days: parsed
        ? undefined
        : 'Enter the days before the expiry date as whole numbers from 0 to 365, separated by commas (at most 10).',
    });
    if (!parsed) return;
    save.mutate({
      days_before: parsed,
      remind_overdue: overdue,
      send_hour: Number(hour),
      time_zone: timeZone.trim(),
      recipients,
    });
  }

  return (
    <Card as="section" aria-labelledby="reminder-settings">
      <h2
        id="reminder-settings"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <Settings className="h-5 w-5 text-gray-500" aria-hidden="true" /> Reminder settings
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        For the whole organisation. Each reminder is sent once per renewal cycle, in one daily
        e-mail per person; a document marked "renewal in progress" is skipped.
      </p>
      <form ref={formRef} onSubmit={submit} noValidate className="mt-3 grid gap-3 sm:grid-cols-2">
        <FormField
          label="Days before the expiry date"
          hint="For example: 30, 7, 1"
          error={problems?.days}
        >
          {(props) => (
            <Input
              {...props}
              value={days}
              onChange={(e) => {
                setDays(e.target.value);
                clear('days');
              }}
            />
          )}
        </FormField>
        <FormField label="Who receives them">
          {(props) => (
            <Select
              {...props}
              value={recipients}
              onChange={(e) => setRecipients(e.target.value as ReminderRecipients)}
            >
              <option value="responsible">The responsible member (else the admins)</option>
              <option value="admins">All admins</option>
              <option value="both">Both</option>
            </Select>
          )}
        </FormField>
        <FormField label="Hour">
          {(props) => (
            <Select {...props} value={hour} onChange={(e) => setHour(e.target.value)}>
              {Array.from({ length: 24 }, (_, h) => (
                <option key={h} value={h}>{`${String(h).padStart(2, '0')}:00`}</option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label="Time zone">
          {(props) => (
            <>
              <Input
                {...props}
                list="time-zones"
                value={timeZone}
                onChange={(e) => setTimeZone(e.target.value)}
              />
              <datalist id="time-zones">
                {zones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
        <Checkbox
          className="sm:col-span-2"
          checked={overdue}
          onChange={(e) => setOverdue(e.target.checked)}
          label="Remind on the day a document becomes overdue, then weekly"
        />
        <div className="sm:col-span-2">
          {save.isSuccess && (
            <p role="status" className="text-sm text-green-700">
              Saved.
            </p>
          )}
          <Button type="submit" busy={save.isPending} busyLabel="Saving...">
            Save Settings
          </Button>
        </div>
      </form>
    </Card>
  );
}
