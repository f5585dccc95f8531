import { Send, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input, Select, Textarea } from '../../../components/ui/form-field.tsx';
import { DOCUMENT_CATEGORIES } from '../../../config/document-categories.ts';
import { useCreateRequest, type RequestLink } from '../api/requests.ts';

interface Person {
  name: string;
  email: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A new document request: what is asked for (title, instructions, the category and tags the
 * document gets, whether an expiry date is required, a due date) and whom (a name each, an
 * e-mail to send the link to or none to hand the link out).
 */
export function NewRequestForm({
  onCreated,
  onCancel,
}: {
  onCreated: (links: RequestLink[]) => void;
  onCancel: () => void;
}) {
  const create = useCreateRequest();
  const [title, setTitle] = useState('');
  const [instructions, setInstructions] = useState('');
  const [category, setCategory] = useState<string>(DOCUMENT_CATEGORIES[0]);
  const [tags, setTags] = useState('');
  const [expiryRequired, setExpiryRequired] = useState(true);
  const [dueDate, setDueDate] = useState('');
  const [askForRenewal, setAskForRenewal] = useState(true);
  const [people, setPeople] = useState<Person[]>([{ name: '', email: '' }]);
  const [errors, setErrors] = useState<{ title?: string; people?: string }>({});

  const setPerson = (index: number, change: Partial<Person>) =>
    setPeople((current) => current.map((p, i) => (i === index ? { ...p, ...change } : p)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const asked = people.filter((p) => p.name.trim() || p.email.trim());
    const found: typeof errors = {};
    if (!title.trim()) found.title = 'Title is required';
    if (asked.length === 0) found.people = 'Add at least one person';
    else if (asked.some((p) => !p.name.trim())) found.people = 'Each person needs a name';
    else if (asked.some((p) => p.email.trim() && !EMAIL.test(p.email.trim()))) {
      found.people = 'Please check the e-mail addresses';
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      {
        title,
        instructions,
        category,
        tags: tags
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
        expiryRequired,
        dueDate,
        askForRenewal,
        people: asked,
      },
      { onSuccess: onCreated },
    );
  };

  return (
    <Card as="section" padding="lg" aria-label="New request">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <h2 className="text-lg font-semibold text-gray-900">New request</h2>
        <FormField label="Title" required error={errors.title}>
          {(field) => (
            <Input
              {...field}
              value={title}
              maxLength={200}
              placeholder="Background-check certificate"
              onChange={(event) => setTitle(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Instructions">
          {(field) => (
            <Textarea
              {...field}
              rows={3}
              maxLength={5000}
              value={instructions}
              onChange={(event) => setInstructions(event.target.value)}
            />
          )}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField label="Category">
            {(field) => (
              <Select
                {...field}
                value={category}
                onChange={(event) => setCategory(event.target.value)}
              >
                {DOCUMENT_CATEGORIES.map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField label="Tags" hint="Separated by commas.">
            {(field) => (
              <Input {...field} value={tags} onChange={(event) => setTags(event.target.value)} />
            )}
          </FormField>
          <FormField label="Due date">
            {(field) => (
              <Input
                {...field}
                type="date"
                value={dueDate}
                onChange={(event) => setDueDate(event.target.value)}
              />
            )}
          </FormField>
        </div>
        <Checkbox
          label="An expiry date is required"
          checked={expiryRequired}
          onChange={(event) => setExpiryRequired(event.target.checked)}
        />
        <Checkbox
          label="Ask the sender for the renewal when the document nears its expiry"
          checked={askForRenewal}
          onChange={(event) => setAskForRenewal(event.target.checked)}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-gray-700">People to ask</legend>
          <p className="text-xs text-gray-500">
            With an e-mail address they get their link by e-mail; without one, you hand the link out
            yourself.
          </p>
          {people.map((person, index) => (
            <div key={index} className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <FormField label={`Name of person ${index + 1}`} className="flex-1">
                {(field) => (
                  <Input
                    {...field}
                    value={person.name}
                    maxLength={200}
                    onChange={(event) => setPerson(index, { name: event.target.value })}
                  />
                )}
              </FormField>
              <FormField label={`E-mail of person ${index + 1}`} className="flex-1">
                {(field) => (
                  <Input
                    {...field}
                    type="email"
                    value={person.email}
                    onChange={(event) => setPerson(index, { email: event.target.value })}
                  />
                )}
              </FormField>
              {people.length > 1 && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove person ${index + 1}`}
                  onClick={() => setPeople((current) => current.filter((_, i) => i !== index))}
                >
                  <X className="h-4 w-4" aria-hidden="true" />
                </Button>
              )}
            </div>
          ))}
          {errors.people && (
            <p role="alert" className="text-sm text-destructive-700">
              {errors.people}
            </p>
          )}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setPeople((current) => [...current, { name: '', email: '' }])}
          >
            Add person
          </Button>
        </fieldset>
        <DialogActions>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" icon={Send} busy={create.isPending}>
            Send request
          </Button>
        </DialogActions>
      </form>
    </Card>
  );
}
