import { Building2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { useCreateOrganization } from '../api/create-organization.ts';

/** The organisation set-up screen for a signed-in user without an organisation (spec §2). */
export function OrganizationSetup() {
  const creating = useCreateOrganization();
  const [name, setName] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // A name of only spaces is not submitted (spec §5).
    const trimmed = name.trim();
    if (!trimmed) return;
    creating.mutate(trimmed);
  };

  return (
    <Card as="section" padding="lg" className="mx-auto max-w-lg">
      <span
        data-tone="info"
        className="flex h-12 w-12 items-center justify-center rounded-full bg-tone-100 text-tone-700"
      >
        <Building2 className="h-6 w-6" aria-hidden="true" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-gray-900">Set up your organization</h1>
      <p className="mt-2 text-sm text-gray-600">
        Create your organization to start managing documents and inviting your team. As its creator,
        you will become the master administrator of this organization.
      </p>
      <form onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormField label="Organization Name">
          {(props) => (
            <Input
              {...props}
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              maxLength={200}
              autoComplete="organization"
            />
          )}
        </FormField>
        <Button
          type="submit"
          disabled={!name.trim()}
          busy={creating.isPending}
          busyLabel="Creating organization..."
          className="w-full"
        >
          Create Organization
        </Button>
      </form>
    </Card>
  );
}
