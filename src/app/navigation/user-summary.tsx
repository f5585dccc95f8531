import { LogOut } from 'lucide-react';
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
}

/** Who is signed in (full name or e-mail, the e-mail, the role badge) and the Sign out button. */
export function UserSummary({ fullName, email, role, layout }: UserSummaryProps) {
  const { signingOut, signOut } = useSignOut();
  const name = fullName?.trim() || email;
  return (
    <div
      className={
        layout === 'row' ? 'flex items-center gap-3' : 'flex flex-col items-start gap-3 px-3 py-3'
      }
    >
      <div className={layout === 'row' ? 'max-w-[10rem] min-w-0 text-right' : 'max-w-full min-w-0'}>
        <p className="truncate text-sm font-medium text-gray-900" title={name}>
          {name}
        </p>
        <p className="truncate text-xs text-gray-500" title={email}>
          {email}
        </p>
      </div>
      {role && <RoleBadge role={role} />}
      <Button
        variant="secondary"
        size="sm"
        icon={LogOut}
        onClick={() => void signOut()}
        disabled={signingOut}
        className="shrink-0"
      >
        Sign out
      </Button>
    </div>
  );
}
