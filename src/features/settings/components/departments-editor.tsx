import { ArrowDown, ArrowUp, Eye, EyeOff, FolderTree, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { FormField, Input, Textarea, useFormProblems } from '../../../components/ui/form-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { useDocumentCategories } from '../../../lib/document-categories.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useAddDepartment } from '../api/add-department.ts';
import { useDepartments, type Department } from '../api/list-departments.ts';
import { useRemoveDepartment } from '../api/remove-department.ts';
import { useReorderDepartments } from '../api/reorder-departments.ts';
import { useSaveDepartment } from '../api/save-department.ts';

/** "Contracts, Policies , " → ["Contracts", "Policies"]. */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The organisation's categories whose documents the page lists, ticked one by one: those in use,
 * and any the department already names that has been retired since (so that it can be untied).
 */
function CategoryChoice({
  chosen,
  onChange,
}: {
  chosen: string[];
  onChange: (categories: string[]) => void;
}) {
  const categories = useDocumentCategories();
  const names = [
    ...(categories.data ?? [])
      .filter((category) => !category.retired || chosen.includes(category.name))
      .map((category) => category.name),
    ...chosen.filter((name) => !categories.data?.some((category) => category.name === name)),
  ];
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium text-gray-700">Categories</legend>
      <p className="text-xs text-gray-500">
        Documents of the ticked categories appear on the page.
      </p>
      {categories.isPending ? (
        <Spinner />
      ) : categories.isError ? (
        <ErrorPanel
          title={`The categories could not be loaded: ${errorMessage(categories.error)}`}
          actions={
            <Button
              variant="destructive-outline"
              size="sm"
              onClick={() => void categories.refetch()}
            >
              Try again
            </Button>
          }
        />
      ) : (
        <div className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-3">
          {names.map((name) => (
            <Checkbox
              key={name}
              label={name}
              checked={chosen.includes(name)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...chosen, name]
                    : chosen.filter((other) => other !== name),
                )
              }
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** One department's name, description, categories and tags, edited in place. */
function DepartmentForm({ department, onDone }: { department: Department; onDone: () => void }) {
  const save = useSaveDepartment();
  const [name, setName] = useState(department.name);
  const [description, setDescription] = useState(department.description ?? '');
  const [categories, setCategories] = useState<string[]>(department.categories);
  const [tags, setTags] = useState(department.tags.join(', '));
  const [hidden, setHidden] = useState(department.hidden);
  const { formRef, problems, report, clear } = useFormProblems<'name'>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = { name: name.trim() ? undefined : 'Enter the department name.' };
    report(found);
    if (found.name) return;
    save.mutate(
      {
        id: department.id,
        name: name.trim(),
        description: description.trim() || null,
        categories,
        tags: splitList(tags),
        hidden,
      },
      { onSuccess: onDone },
    );
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label={`Edit ${department.name}`}
      className="mt-3 grid gap-3 sm:grid-cols-2"
    >
      <FormField label="Name" required error={problems?.name}>
        {(props) => (
          <Input
            {...props}
            value={name}
            maxLength={100}
            onChange={(event) => {
              setName(event.target.value);
              clear('name');
            }}
          />
        )}
      </FormField>
      <FormField label="Description">
        {(props) => (
          <Textarea
            {...props}
            rows={1}
            value={description}
            maxLength={500}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </FormField>
      <CategoryChoice chosen={categories} onChange={setCategories} />
      <FormField label="Tags" hint="Documents with any of these tags appear on the page too.">
        {(props) => (
          <Input {...props} value={tags} onChange={(event) => setTags(event.target.value)} />
        )}
      </FormField>
      <Checkbox
        className="sm:col-span-2"
        checked={hidden}
        onChange={(event) => setHidden(event.target.checked)}
        label="Hidden from the dashboard"
      />
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" busy={save.isPending} busyLabel="Saving...">
          Save department
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function AddDepartmentForm({ organizationId }: { organizationId: string }) {
  const add = useAddDepartment();
  const toast = useToast();
  const [name, setName] = useState('');
  const { formRef, problems, report, clear } = useFormProblems<'name'>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = { name: name.trim() ? undefined : 'Enter the name of the new department.' };
    report(found);
    if (found.name) return;
    add.mutate(
      { organizationId, name },
      {
        onSuccess: (added) => {
          setName('');
          toast(`${added.name} was added.`);
        },
      },
    );
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className="mt-4 flex flex-wrap items-end gap-2"
    >
      <FormField label="New department" error={problems?.name} className="min-w-0 flex-1">
        {(props) => (
          <Input
            {...props}
            value={name}
            maxLength={100}
            onChange={(event) => {
              setName(event.target.value);
              clear('name');
            }}
          />
        )}
      </FormField>
      <Button type="submit" icon={Plus} busy={add.isPending} busyLabel="Adding...">
        Add department
      </Button>
    </form>
  );
}

/**
 * The organisation's departments (admins): rename, describe, hide, reorder, add and remove
 * them, and choose the categories and tags that feed each page. A page keeps its address
 * (`/department/{key}`) when renamed.
 */
export function DepartmentsEditor({ organizationId }: { organizationId: string }) {
  const departments = useDepartments(organizationId);
  const save = useSaveDepartment();
  const reorder = useReorderDepartments();
  const remove = useRemoveDepartment();
  const { confirm } = useFeedback();
  const [editing, setEditing] = useState<string | null>(null);

  const list = departments.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const ids = list.map((department) => department.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate(ids);
  };
  const removeOne = async (department: Department) => {
    const sure = await confirm(
      `Remove the department "${department.name}"? Its page goes; its documents stay in Documents.`,
      { confirmLabel: 'Remove', destructive: true },
    );
    if (sure) remove.mutate(department.id);
  };

  return (
    <Card as="section" aria-labelledby="departments-settings">
      <h2
        id="departments-settings"
        className="flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <FolderTree className="h-5 w-5 text-gray-500" aria-hidden="true" /> Departments
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        The department pages on the dashboard. Each page lists the documents of its categories and
        tags.
      </p>
      {departments.isPending ? (
        <Spinner label="Loading the departments..." />
      ) : departments.isError ? (
        <ErrorPanel
          title={errorMessage(departments.error)}
          actions={
            <Button variant="secondary" size="sm" onClick={() => void departments.refetch()}>
              Try again
            </Button>
          }
        />
      ) : (
        <ul aria-label="Departments" className="mt-3 divide-y divide-gray-200">
          {list.map((department, index) => (
            <li key={department.id} className="py-3">
              <div className="flex flex-wrap items-center gap-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-gray-900">
                    {department.name}
                    {department.hidden && (
                      <span className="ml-2 rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-600">
                        Hidden
                      </span>
                    )}
                  </p>
                  <p className="truncate text-xs text-gray-500">
                    {paths.department(department.key)}
                    {[...department.categories, ...department.tags].length > 0 &&
                      ` · ${[...department.categories, ...department.tags.map((tag) => `#${tag}`)].join(', ')}`}
                  </p>
                </div>
                <div className="flex shrink-0 gap-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    icon={ArrowUp}
                    aria-label={`Move ${department.name} up`}
                    disabled={index === 0 || reorder.isPending}
                    onClick={() => move(index, -1)}
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    icon={ArrowDown}
                    aria-label={`Move ${department.name} down`}
                    disabled={index === list.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    icon={department.hidden ? Eye : EyeOff}
                    aria-label={`${department.hidden ? 'Show' : 'Hide'} ${department.name}`}
                    onClick={() => save.mutate({ ...department, hidden: !department.hidden })}
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    icon={Pencil}
                    aria-label={`Edit ${department.name}`}
                    aria-expanded={editing === department.id}
                    onClick={() => setEditing(editing === department.id ? null : department.id)}
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    icon={Trash2}
                    aria-label={`Remove ${department.name}`}
                    onClick={() => void removeOne(department)}
                  />
                </div>
              </div>
              {editing === department.id && (
                <DepartmentForm department={department} onDone={() => setEditing(null)} />
              )}
            </li>
          ))}
        </ul>
      )}
      <AddDepartmentForm organizationId={organizationId} />
    </Card>
  );
}
