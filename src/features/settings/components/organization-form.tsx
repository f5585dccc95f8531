import { Building2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
import { useUpdateOrganization } from '../api/update-organization.ts';

/** The IANA time zones this browser knows, for the searchable list. */
function timeZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}

/** The browser's own time zone, proposed while the organisation still has the default (UTC). */
export function proposedTimeZone(current: string): string {
  if (current && current !== 'UTC') return current;
  return Intl.DateTimeFormat().resolvedOptions().timeZone || current || 'UTC';
}

export interface OrganizationFormProps {
  name: string;
  timeZone: string;
  /** Reloads the session's organisation after a save (the bar shows the name). */
  onSaved: () => Promise<void>;
}

/** The organisation's name and the time zone its reminders are sent in (admins). */
export function OrganizationForm({ name: initialName, timeZone, onSaved }: OrganizationFormProps) {
  const save = useUpdateOrganization(onSaved);
  const [name, setName] = useState(initialName);
  const [zone, setZone] = useState(() => proposedTimeZone(timeZone));
  const { formRef, problems, report, clear } = useFormProblems<'name' | 'zone'>();
  const zones = timeZones();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      name: name.trim() ? undefined : 'Enter the organization name.',
      zone:
        zones.length === 0 || zones.includes(zone.trim()) || zone.trim() === 'UTC'
          ? undefined
          : 'Choose a time zone from the list, for example America/Chicago.',
    };
    report(found);
    if (found.name || found.zone) return;
    save.mutate({ name: name.trim(), timeZone: zone.trim() });
  }

  return (
    <Card as="section" aria-labelledby="organization-settings">
      <h2
        id="organization-settings"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <Building2 className="h-5 w-5 text-gray-500" aria-hidden="true" /> Organization
      </h2>
      <form ref={formRef} onSubmit={submit} noValidate className="mt-3 grid gap-3 sm:grid-cols-2">
        <FormField label="Organization name" required error={problems?.name}>
          {(props) => (
            <Input
              {...props}
              value={name}
              maxLength={200}
              onChange={(event) => {
                setName(event.target.value);
                clear('name');
              }}
            />
          )}
        </FormField>
        <FormField
          label="Time zone"
          hint="Reminders are sent at their hour in this time zone. Type to search."
          error={problems?.zone}
        >
          {(props) => (
            <>
              <Input
                {...props}
                list="organization-time-zones"
                value={zone}
                onChange={(event) => {
                  setZone(event.target.value);
                  clear('zone');
                }}
              />
              <datalist id="organization-time-zones">
                {zones.map((option) => (
                  <option key={option} value={option} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
        <div className="sm:col-span-2">
          <Button
            type="submit"
            busy={save.isPending}
            busyLabel="Saving..."
            onClick={() => save.reset()}
          >
            Save
          </Button>
          {save.isSuccess && (
            <span role="status" className="ml-3 text-sm text-green-700">
              Saved.
            </span>
          )}
        </div>
      </form>
    </Card>
  );
}
