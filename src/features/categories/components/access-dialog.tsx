import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { Select } from '../../../components/ui/form-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import type { MemberCategory } from '../../../lib/document-categories.ts';
import { ROLE_LABELS, type Role } from '../../../lib/roles.ts';
import type { Access, AccessRule } from '../api/category-access.ts';
import type { MemberGroup } from '../api/member-groups.ts';

/** The roles a rule may name; master admins always have full access and need none. */
const RULE_ROLES: readonly Exclude<Role, 'master_admin'>[] = ['admin', 'user', 'viewer'];

type Choice = Access | 'none';

const CHOICE_LABELS: Record<Choice, string> = {
  none: 'No access',
  view: 'View',
  edit: 'View and edit',
};

/** Who may see this category, in words: "Open to every member" or the groups and roles named. */
export function accessSummary(
  category: Pick<MemberCategory, 'restricted'>,
  rules: readonly AccessRule[],
  groups: readonly MemberGroup[],
): string {
  if (!category.restricted) return 'Open to every member';
  const named = rules.map((rule) => {
    const who =
      rule.role !== undefined
        ? `${ROLE_LABELS[rule.role]}s`
        : (groups.find((group) => group.id === rule.groupId)?.name ?? 'a removed group');
    return `${who} (${rule.access === 'edit' ? 'edit' : 'view'})`;
  });
  named.sort((a, b) => a.localeCompare(b));
  return named.length > 0 ? `Restricted: ${named.join(', ')}` : 'Restricted: master admins only';
}

const key = (rule: { groupId?: string; role?: Role }) =>
  rule.groupId ? `group:${rule.groupId}` : `role:${rule.role}`;

/**
 * A category's access: open to every member (the default), or restricted to the groups and
 * roles given View or View and edit. Master admins change it; admins read it, with a note.
 */
export function AccessDialog({
  category,
  rules,
  groups,
  canChange,
  saving,
  onSave,
  onClose,
}: {
  category: MemberCategory;
  rules: readonly AccessRule[];
  groups: readonly MemberGroup[];
  canChange: boolean;
  saving: boolean;
  onSave: (restricted: boolean, rules: AccessRule[]) => void;
  onClose: () => void;
}) {
  const [restricted, setRestricted] = useState(category.restricted);
  const [choices, setChoices] = useState<ReadonlyMap<string, Choice>>(
    () => new Map(rules.map((rule) => [key(rule), rule.access])),
  );
  const choiceOf = (rule: { groupId?: string; role?: Role }) => choices.get(key(rule)) ?? 'none';
  const choose = (rule: { groupId?: string; role?: Role }, choice: Choice) =>
    setChoices((current) => new Map(current).set(key(rule), choice));

  function save() {
    const chosen: AccessRule[] = [
      ...groups.flatMap((group): AccessRule[] => {
        const choice = choiceOf({ groupId: group.id });
        return choice === 'none' ? [] : [{ groupId: group.id, access: choice }];
      }),
      ...RULE_ROLES.flatMap((role): AccessRule[] => {
        const choice = choiceOf({ role });
        return choice === 'none' ? [] : [{ role, access: choice }];
      }),
    ];
    onSave(restricted, restricted ? chosen : []);
  }

  const rows: { label: string; rule: { groupId?: string; role?: Role } }[] = [
    ...groups.map((group) => ({ label: group.name, rule: { groupId: group.id } })),
    ...RULE_ROLES.map((role) => ({ label: `Every ${ROLE_LABELS[role]}`, rule: { role } })),
  ];

  return (
    <Modal title={`Access to ${category.name}`} onClose={onClose} size="lg" dismissible={!saving}>
      <div className="space-y-4">
        {!canChange && (
          <p role="note" className="rounded-md bg-gray-50 p-3 text-sm text-gray-700">
            Only master admins can change who may see a category. You can see its access here.
          </p>
        )}
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-gray-900">Who may see its documents</legend>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="access"
              className="mt-1"
              checked={!restricted}
              disabled={!canChange}
              onChange={() => setRestricted(false)}
            />
            <span>
              <span className="font-medium">Open to every member</span>
              <span className="block text-gray-600">
                Every member sees its documents; users and admins also change them.
              </span>
            </span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="access"
              className="mt-1"
              checked={restricted}
              disabled={!canChange}
              onChange={() => setRestricted(true)}
            />
            <span>
              <span className="font-medium">Restricted</span>
              <span className="block text-gray-600">
                Only master admins and the groups and roles chosen below. Admins too need a rule.
              </span>
            </span>
          </label>
        </fieldset>
        {restricted && (
          <table className="w-full text-sm">
            <caption className="sr-only">Access by group and role</caption>
            <thead>
              <tr className="text-left text-gray-600">
                <th scope="col" className="py-1 font-medium">
                  Group or role
                </th>
                <th scope="col" className="py-1 font-medium">
                  Access
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {rows.map(({ label, rule }) => (
                <tr key={key(rule)}>
                  <th scope="row" className="py-2 pr-3 text-left font-normal break-words">
                    {label}
                  </th>
                  <td className="py-2">
                    <Select
                      aria-label={`Access of ${label}`}
                      value={choiceOf(rule)}
                      disabled={!canChange}
                      onChange={(event) => choose(rule, event.target.value as Choice)}
                      className="w-auto min-w-36"
                    >
                      {(Object.keys(CHOICE_LABELS) as Choice[]).map((choice) => (
                        <option key={choice} value={choice}>
                          {CHOICE_LABELS[choice]}
                        </option>
                      ))}
                    </Select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {restricted && groups.length === 0 && (
          <p className="text-sm text-gray-600">
            No groups yet: add them under Groups to give named people access.
          </p>
        )}
        <DialogActions>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            {canChange ? 'Cancel' : 'Close'}
          </Button>
          {canChange && (
            <Button onClick={save} busy={saving} busyLabel="Saving...">
              Save Access
            </Button>
          )}
        </DialogActions>
      </div>
    </Modal>
  );
}
