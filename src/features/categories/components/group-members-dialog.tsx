import { useState } from 'react';
import { RoleBadge } from '../../../components/role-badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import type { MemberGroup, OrganizationMember } from '../api/member-groups.ts';

/** Choosing a group's members among the organisation's active members; saved all at once. */
export function GroupMembersDialog({
  group,
  members,
  saving,
  onSave,
  onClose,
}: {
  group: MemberGroup;
  members: readonly OrganizationMember[];
  saving: boolean;
  onSave: (memberIds: string[]) => void;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(group.memberIds));
  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <Modal title={`Members of ${group.name}`} onClose={onClose} size="md" dismissible={!saving}>
      <div className="space-y-4">
        <ul aria-label={`Members of ${group.name}`} className="max-h-96 space-y-2 overflow-y-auto">
          {members.map((member) => (
            <li key={member.id} className="flex items-center justify-between gap-3">
              <Checkbox
                label={member.name}
                hint={member.name !== member.email ? member.email : undefined}
                checked={chosen.has(member.id)}
                onChange={(event) => toggle(member.id, event.target.checked)}
              />
              <RoleBadge role={member.role} />
            </li>
          ))}
        </ul>
        <DialogActions>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={() => onSave([...chosen])} busy={saving} busyLabel="Saving...">
            Save Members
          </Button>
        </DialogActions>
      </div>
    </Modal>
  );
}
