import { Building2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useCreateOrganization } from '../hooks/use-create-organization.ts';

/** The organisation set-up screen for a signed-in user without an organisation (spec §2). */
export function OrganizationSetup() {
  const { creating, create } = useCreateOrganization();
  const [name, setName] = useState('');
  const nameId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // A name of only spaces is not submitted (spec §5).
    if (!name.trim()) return;
    void create(name);
  };

  return (
    <section className="mx-auto max-w-lg rounded-lg border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-blue-100 text-blue-700">
        <Building2 className="h-6 w-6" aria-hidden="true" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-gray-900">Set up your organization</h1>
      <p className="mt-2 text-sm text-gray-600">
        Create your organization to start managing documents and inviting your team. As its creator,
        you will become the master administrator of this organization.
      </p>
      <form onSubmit={onSubmit} className="mt-6 space-y-4">
        <div>
          <label htmlFor={nameId} className="block text-sm font-medium text-gray-700">
            Organization Name
          </label>
          <input
            id={nameId}
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            maxLength={200}
            autoComplete="organization"
            className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none"
          />
        </div>
        <button
          type="submit"
          disabled={creating || !name.trim()}
          className="w-full rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {creating ? 'Creating organization...' : 'Create Organization'}
        </button>
      </form>
    </section>
  );
}
