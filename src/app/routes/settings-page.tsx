import { Bell, ImageUp, Settings } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { useReminderSettings } from '../../features/reminders/api/reminder-settings.ts';
import { DepartmentsEditor } from '../../features/settings/components/departments-editor.tsx';
import { EmailSettings } from '../../features/settings/components/email-settings.tsx';
import { OrganizationForm } from '../../features/settings/components/organization-form.tsx';
import { AccessRestricted } from '../../features/users/components/access-restricted.tsx';
import { OrganizationSetup } from '../../features/organization/components/organization-setup.tsx';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';

const LogoUploadDialog = lazy(async () => ({
  default: (await import('../../features/branding/components/logo-upload-dialog.tsx'))
    .LogoUploadDialog,
}));

/**
 * Settings (/settings, admins): the organisation's name and time zone, its logo, the
 * reminders' defaults, its departments and how its e-mail goes out.
 */
export function SettingsPage() {
  const { profile, organization, refreshProfile } = useSession();
  const organizationId = profile?.organization_id ?? null;
  if (!profile || !organizationId) return <OrganizationSetup />;
  if (!isAdminRole(profile.role)) return <AccessRestricted />;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="flex items-center gap-2 text-2xl font-bold text-gray-900">
          <Settings className="h-6 w-6 text-gray-500" aria-hidden="true" /> Settings
        </h1>
        <p className="mt-1 text-sm text-gray-600">
          Make Steward your organization&rsquo;s own: its name, time zone, logo, departments and
          e-mail.
        </p>
      </header>
      <OrganizationSection
        organizationId={organizationId}
        name={organization?.name ?? ''}
        onSaved={refreshProfile}
      />
      <LogoSection organizationId={organizationId} />
      <Card as="section" aria-labelledby="reminder-defaults">
        <h2
          id="reminder-defaults"
          className="flex items-center gap-2 text-lg font-semibold text-gray-900"
        >
          <Bell className="h-5 w-5 text-gray-500" aria-hidden="true" /> Reminders
        </h2>
        <p className="mt-1 text-sm text-gray-600">
          When and to whom expiry reminders are sent, for the whole organization.
        </p>
        <ButtonLink to={paths.reminders} variant="secondary" size="sm" className="mt-3">
          Reminder settings
        </ButtonLink>
      </Card>
      <DepartmentsEditor organizationId={organizationId} />
      <EmailSettings />
    </div>
  );
}

function OrganizationSection({
  organizationId,
  name,
  onSaved,
}: {
  organizationId: string;
  name: string;
  onSaved: () => Promise<void>;
}) {
  const reminders = useReminderSettings(organizationId);
  if (reminders.isPending) return <Spinner label="Loading..." />;
  return (
    <OrganizationForm name={name} timeZone={reminders.data?.time_zone ?? 'UTC'} onSaved={onSaved} />
  );
}

function LogoSection({ organizationId }: { organizationId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Card as="section" aria-labelledby="logo-settings">
      <h2
        id="logo-settings"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <ImageUp className="h-5 w-5 text-gray-500" aria-hidden="true" /> Logo
      </h2>
      <p className="mt-1 text-sm text-gray-600">Shown in the navigation bar instead of the name.</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={() => setOpen(true)}>
        Upload custom logo
      </Button>
      {open && (
        <Suspense fallback={null}>
          <LogoUploadDialog organizationId={organizationId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </Card>
  );
}
