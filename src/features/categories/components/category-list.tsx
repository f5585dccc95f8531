import {
  Archive,
  ArchiveRestore,
  ArrowDown,
  ArrowUp,
  Pencil,
  Plus,
  ShieldCheck,
} from 'lucide-react';
import { useState } from 'react';
import { RestrictedLock } from '../../../components/restricted-lock.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useDocumentCategories, type MemberCategory } from '../../../lib/document-categories.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useCategoryAccess, useSetCategoryAccess } from '../api/category-access.ts';
import {
  useCreateCategory,
  useRenameCategory,
  useReorderCategories,
  useSetCategoryRetired,
} from '../api/category-writes.ts';
import { useGroups } from '../api/member-groups.ts';
import { AccessDialog, accessSummary } from './access-dialog.tsx';
import { MAX_NAME_LENGTH, NameDialog, nameProblem } from './name-dialog.tsx';

/** The ids in the new order after moving one place up (-1) or down (+1). */
function moved(categories: readonly MemberCategory[], index: number, step: -1 | 1): string[] {
  const ids = categories.map((category) => category.id);
  const [id] = ids.splice(index, 1);
  ids.splice(index + step, 0, id!);
  return ids;
}

function AddCategoryForm() {
  const [name, setName] = useState('');
  const create = useCreateCategory();
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
            toast(`Category "${trimmed}" added`);
          },
        });
      }}
    >
      <FormField label="New category" hideLabel className="flex-1" error={problems?.name}>
        {(props) => (
          <Input
            {...props}
            value={name}
            maxLength={MAX_NAME_LENGTH}
            placeholder="New category name"
            autoComplete="off"
            onChange={(event) => {
              setName(event.target.value);
              clear('name');
            }}
          />
        )}
      </FormField>
      <Button type="submit" icon={Plus} busy={create.isPending} busyLabel="Adding...">
        Add Category
      </Button>
    </form>
  );
}

type Open = { kind: 'rename' | 'access'; category: MemberCategory } | null;

/**
 * The organisation's categories in their order: add, rename, move up or down, retire (it
 * leaves the pickers, its documents keep it) or bring back, and who may see each.
 */
export function CategoryList({ canChangeAccess }: { canChangeAccess: boolean }) {
  const categories = useDocumentCategories();
  const access = useCategoryAccess();
  const groups = useGroups();
  const rename = useRenameCategory();
  const retire = useSetCategoryRetired();
  const reorder = useReorderCategories();
  const saveAccess = useSetCategoryAccess();
  const toast = useToast();
  const [open, setOpen] = useState<Open>(null);

  if (categories.isPending) return <Spinner label="Loading categories..." />;
  if (categories.isError) {
    return (
      <ErrorPanel title={`The categories could not be loaded: ${errorMessage(categories.error)}`} />
    );
  }
  const list = categories.data;
  const busy = reorder.isPending || retire.isPending;

  return (
    <div className="space-y-4">
      <AddCategoryForm />
      <Card as="ul" padding="none" aria-label="Categories" className="divide-y divide-gray-100">
        {list.map((category, index) => (
          <li
            key={category.id}
            className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4"
          >
            <div className="min-w-0 flex-1">
              <p className="flex items-center gap-2 font-medium text-gray-900">
                <span className="break-words">{category.name}</span>
                {category.restricted && <RestrictedLock />}
                {category.retired && (
                  <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs font-medium text-gray-700">
                    Retired
                  </span>
                )}
              </p>
              <p className="text-sm text-gray-600">
                {accessSummary(category, access.data?.get(category.id) ?? [], groups.data ?? [])}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-1">
              <Button
                variant="ghost"
                size="icon"
                title="Move up"
                aria-label={`Move ${category.name} up`}
                disabled={busy || index === 0}
                onClick={() => reorder.mutate(moved(list, index, -1))}
              >
                <ArrowUp className="h-4 w-4" aria-hidden="true" />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                title="Move down"
                aria-label={`Move ${category.name} down`}
                disabled={busy || index === list.length - 1}
                onClick={() => reorder.mutate(moved(list, index, 1))}
              >
                <ArrowDown className="h-4 w-4" aria-hidden="true" />
              </Button>
              <Button
                variant="secondary"
                size="sm"
                icon={Pencil}
                aria-label={`Rename ${category.name}`}
                onClick={() => setOpen({ kind: 'rename', category })}
              >
                <span className="max-sm:sr-only">Rename</span>
              </Button>
              <Button
                variant="secondary"
                size="sm"
                icon={ShieldCheck}
                aria-label={`Access to ${category.name}`}
                onClick={() => setOpen({ kind: 'access', category })}
              >
                <span className="max-sm:sr-only">Access</span>
              </Button>
              <Button
                variant="secondary"
                size="sm"
                icon={category.retired ? ArchiveRestore : Archive}
                aria-label={`${category.retired ? 'Bring back' : 'Retire'} ${category.name}`}
                disabled={busy}
                onClick={() =>
                  retire.mutate(
                    { id: category.id, retired: !category.retired },
                    {
                      onSuccess: () =>
                        toast(
                          category.retired
                            ? `Category "${category.name}" is back in use`
                            : `Category "${category.name}" retired`,
                        ),
                    },
                  )
                }
              >
                {/* On a phone the row has room for the icons only; the names stay for screen readers. */}
                <span className="max-sm:sr-only">{category.retired ? 'Bring back' : 'Retire'}</span>
              </Button>
            </div>
          </li>
        ))}
      </Card>
      {open?.kind === 'rename' && (
        <NameDialog
          title={`Rename ${open.category.name}`}
          label="Category name"
          initialName={open.category.name}
          saving={rename.isPending}
          onClose={() => setOpen(null)}
          onSave={(name) =>
            rename.mutate({ id: open.category.id, name }, { onSuccess: () => setOpen(null) })
          }
        />
      )}
      {open?.kind === 'access' && (
        <AccessDialog
          category={open.category}
          rules={access.data?.get(open.category.id) ?? []}
          groups={groups.data ?? []}
          canChange={canChangeAccess}
          saving={saveAccess.isPending}
          onClose={() => setOpen(null)}
          onSave={(restricted, rules) =>
            saveAccess.mutate(
              { categoryId: open.category.id, restricted, rules },
              {
                onSuccess: () => {
                  setOpen(null);
                  toast(`Access to "${open.category.name}" saved`);
                },
              },
            )
          }
        />
      )}
    </div>
  );
}
