import { ROLE_LABELS, type Role } from '../lib/roles.ts';

/** Master Admin, Admin or User: the label carries the meaning, the colour only helps. */
export function RoleBadge({ role }: { role: Role }) {
  return (
    <span
      data-tone={`role-${role}`}
      className="inline-flex shrink-0 items-center rounded-full bg-tone-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-tone-800"
    >
      {ROLE_LABELS[role]}
    </span>
  );
}
