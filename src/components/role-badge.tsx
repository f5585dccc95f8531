import { ROLE_LABELS, type Role } from '../lib/roles.ts';

const tones: Record<Role, string> = {
  master_admin: 'bg-purple-100 text-purple-800',
  admin: 'bg-blue-100 text-blue-800',
  user: 'bg-gray-100 text-gray-800',
};

/** Master Admin, Admin or User: the label carries the meaning, the colour only helps. */
export function RoleBadge({ role }: { role: Role }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tones[role]}`}
    >
      {ROLE_LABELS[role]}
    </span>
  );
}
