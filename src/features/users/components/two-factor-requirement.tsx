import { ShieldCheck } from 'lucide-react';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { useSession } from '../../../lib/session.tsx';
import { useSetTwoFactorRequirement } from '../api/two-factor-admin.ts';

/**
 * The organisation's rule, for its master admin: admins and master admins sign in with a
 * second factor. The database enforces it; turning it on needs one's own second factor first.
 */
export function TwoFactorRequirement() {
  const { organization, refreshProfile } = useSession();
  const change = useSetTwoFactorRequirement();
  if (!organization) return null;
  const required = organization.require_two_factor_for_admins;

  return (
    <Card as="section" aria-labelledby="two-factor-requirement-heading">
      <h2
        id="two-factor-requirement-heading"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <ShieldCheck className="h-5 w-5 text-primary-600" aria-hidden="true" />
        Two-factor sign-in
      </h2>
      <Checkbox
        className="mt-2"
        checked={required}
        disabled={change.isPending}
        onChange={(event) =>
          change.mutate(event.target.checked, { onSuccess: () => void refreshProfile() })
        }
        label="Require two-factor sign-in for admins and master admins. Admins without it are asked to set it up before they can do anything else."
      />
    </Card>
  );
}
