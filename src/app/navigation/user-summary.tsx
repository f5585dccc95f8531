import { LogOut, UserPen } from 'lucide-react';
import { RoleBadge } from '../../components/role-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import type { Role } from '../../lib/roles.ts';
import { useSignOut } from './use-sign-out.ts';

export interface UserSummaryProps {
  fullName: string | null;
  email: string;
  role: Role | null;
  /** `row` in the desktop bar, `stacked` in the small-screen menu. */
  layout: 'row' | 'stacked';
  /** Opens the profile dialog; absent where the member may not change it (deactivated). */
  onEditProfile?: () => void;
}

/**
 * Who is signed in (full name or e-mail, the e-mail once more under a name, the role badge),
 * Edit profile and Sign out.
 */
export function UserSummary({ fullName, email, role, layout, onEditProfile }: UserSummaryProps) {
  const { signingOut, signOut } = useSignOut();
  const name = fullName?.trim() || null;
  const row = layout === 'row';
  return (
    <div className={row ? 'flex items-center gap-3' : 'flex flex-col items-start gap-3 px-3 py-3'}>
      <div className={row ? 'max-w-[14rem] min-w-0 text-right' : 'max-w-full min-w-0'}>
        <p className="truncate text-sm font-medium text-gray-900" title={name ?? email}>
          {name ?? email}
        </p>
        {name && (
          <p className="truncate text-xs text-gray-500" title={email}>
            {email}
          </p>
        )}
      </div>
      {role && <RoleBadge role={role} />}
      <div className="flex shrink-0 items-center gap-2">
        {onEditProfile && (
          <Button
            variant={row ? 'ghost' : 'secondary'}
            size="sm"
            icon={UserPen}
            onClick={onEditProfile}
            aria-haspopup="dialog"
            aria-label="Edit profile"
          >
            Profile
          </Button>
        )}
        <Button
          variant="secondary"
          size="sm"
          icon={LogOut}
          onClick={() => void signOut()}
          disabled={signingOut}
        >
          Sign out
        </Button>
      </div>
    </div>
  );
}
