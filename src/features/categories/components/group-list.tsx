import { Pencil, Plus, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import {
  useActiveMembers,
  useCreateGroup,
  useDeleteGroup,
  useGroups,
  useRenameGroup,
  useSetGroupMembers,
  type MemberGroup,
} from '../api/member-groups.ts';
import { GroupMembersDialog } from './group-members-dialog.tsx';
import { MAX_NAME_LENGTH, NameDialog, nameProblem } from './name-dialog.tsx';

function AddGroupForm() {
  const [name, setName] = useState('');
  const create = useCreateGroup();
  const toast = useToast();
  const { formRef, problems, report, clear } = useFormProblems<'name'>();
  return (
    <form
      ref={formRef}
      noValidate
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        if (report({ name: nameProblem(name) ?? undefined })) return;
        const trimmed = name.trim();
        create.mutate(trimmed, {
          onSuccess: () => {
            setName('');
            toast(`Group "${trimmed}" added`);
          },
        });
      }}
    >
      <FormField label="New group" hideLabel className="flex-1" error={problems?.name}>
        {(props) => (
          <Input
            {...props}
            value={name}
            maxLength={MAX_NAME_LENGTH}
            placeholder="New group name, e.g. Finance team"
            autoComplete="off"
            onChange={(event) => {
              setName(event.target.value);
              clear('name');
            }}
          />
        )}
      </FormField>
      <Button type="submit" icon={Plus} busy={create.isPending} busyLabel="Adding...">
        Add Group
      </Button>
    </form>
  );
}

const memberCount = (n: number) => (n === 1 ? '1 member' : `${n} members`);

type Open = { kind: 'rename' | 'members'; group: MemberGroup } | null;

/**
 * The organisation's groups ("Elders", "Finance team"): add, rename, choose members, delete.
 * A category's access names them; a member may be in several.
 */
export function GroupList() {
  const groups = useGroups();
  const members = useActiveMembers();
  const rename = useRenameGroup();
  const remove = useDeleteGroup();
  const setMembers = useSetGroupMembers();
  const { confirm } = useFeedback();
  const toast = useToast();
  const [open, setOpen] = useState<Open>(null);

  if (groups.isPending) return <Spinner label="Loading groups..." />;
  if (groups.isError) {
    return <ErrorPanel title={`The groups could not be loaded: ${errorMessage(groups.error)}`} />;
  }
  const nameOf = (id: string) => members.data?.find((member) => member.id === id)?.name;

  return (
    <div className="space-y-4">
      <AddGroupForm />
      {groups.data.length === 0 ? (
        <p className="text-sm text-gray-600">No groups yet.</p>
      ) : (
        <Card as="ul" padding="none" aria-label="Groups" className="divide-y divide-gray-100">
          {groups.data.map((group) => (
            <li
              key={group.id}
              className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4"
            >
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words text-gray-900">{group.name}</p>
                <p className="text-sm text-gray-600">
                  {memberCount(group.memberIds.length)}
                  {group.memberIds.length > 0 &&
                    `: ${group.memberIds.map(nameOf).filter(Boolean).join(', ')}`}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-1">
                <Button
                  variant="secondary"
                  size="sm"
                  icon={Users}
                  aria-label={`Members of ${group.name}`}
                  disabled={!members.data}
                  onClick={() => setOpen({ kind: 'members', group })}
                >
                  <span className="max-sm:sr-only">Members</span>
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  icon={Pencil}
                  aria-label={`Rename ${group.name}`}
                  onClick={() => setOpen({ kind: 'rename', group })}
                >
                  <span className="max-sm:sr-only">Rename</span>
                </Button>
                <Button
                  variant="destructive-outline"
                  size="sm"
                  icon={Trash2}
                  aria-label={`Delete ${group.name}`}
                  disabled={remove.isPending}
                  onClick={() =>
                    void confirm(
                      `Delete the group "${group.name}"? Its members lose the access it gives.`,
                      { confirmLabel: 'Delete', destructive: true },
                    ).then((confirmed) => {
                      if (!confirmed) return;
                      remove.mutate(group.id, {
                        onSuccess: () => toast(`Group "${group.name}" deleted`),
                      });
                    })
                  }
                >
                  <span className="max-sm:sr-only">Delete</span>
                </Button>
              </div>
            </li>
          ))}
        </Card>
      )}
      {open?.kind === 'rename' && (
        <NameDialog
          title={`Rename ${open.group.name}`}
          label="Group name"
          initialName={open.group.name}
          saving={rename.isPending}
          onClose={() => setOpen(null)}
          onSave={(name) =>
            rename.mutate({ id: open.group.id, name }, { onSuccess: () => setOpen(null) })
          }
        />
      )}
      {open?.kind === 'members' && members.data && (
        <GroupMembersDialog
          group={open.group}
          members={members.data}
          saving={setMembers.isPending}
          onClose={() => setOpen(null)}
          onSave={(memberIds) =>
            setMembers.mutate(
              { id: open.group.id, memberIds },
              {
                onSuccess: () => {
                  setOpen(null);
                  toast(`Members of "${open.group.name}" saved`);
                },
              },
            )
          }
        />
      )}
    </div>
  );
}
