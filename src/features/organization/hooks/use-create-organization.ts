import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { useSession } from '../../../lib/session.tsx';
import { createOrganization } from '../api/create-organization.ts';

/**
 * Creates the organisation, then reloads the session's profile so that the whole app (the
 * navigation's role badge, the admin links, the pages) sees the new master admin at once.
 */
export function useCreateOrganization() {
  const { refreshProfile } = useSession();
  const { alert } = useFeedback();
  const [creating, setCreating] = useState(false);

  const create = async (rawName: string): Promise<boolean> => {
    const name = rawName.trim();
    if (!name) return false;
    setCreating(true);
    try {
      await createOrganization(name);
      await refreshProfile();
      return true;
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : 'Unknown error';
      await alert(`Failed to create organization: ${message}`);
      return false;
    } finally {
      setCreating(false);
    }
  };

  return { creating, create };
}
