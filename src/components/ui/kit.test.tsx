import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { KeyRound, XCircle } from 'lucide-react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AuthLayout } from './auth-layout.tsx';
import { Button } from './button.tsx';
import { Card } from './card.tsx';
import { Checkbox } from './checkbox.tsx';
import { DialogActions } from './dialog-actions.tsx';
import { FileDrop } from './file-drop.tsx';
import { FormField, Input, useFormProblems } from './form-field.tsx';
import { Tabs } from './tabs.tsx';

describe('Card', () => {
  it('is the element it is asked to be, with the panel look and the caller’s layout', () => {
    render(
      <Card as="section" aria-label="Reminder settings" className="space-y-4">
        Inside
      </Card>,
    );
    const card = screen.getByRole('region', { name: 'Reminder settings' });
    expect(card.tagName).toBe('SECTION');
    expect(card.className).toContain('rounded-lg border border-gray-200 bg-white shadow-sm p-4');
    expect(card.className).toContain('space-y-4');
  });

  it('holds rows without inner space', () => {
    render(
      <Card as="ul" padding="none" aria-label="Rows">
        <li>One</li>
      </Card>,
    );
    expect(screen.getByRole('list', { name: 'Rows' }).className).not.toMatch(/\bp-\d/);
  });
});

describe('Checkbox', () => {
  it('is named by its label, which toggles it, and described by its hint', async () => {
    function Harness() {
      const [on, setOn] = useState(false);
      return (
        <Checkbox
          label="Send invitation by e-mail"
          hint="The link is shown either way."
          checked={on}
          onChange={(event) => setOn(event.target.checked)}
        />
      );
    }
    render(<Harness />);
    const box = screen.getByRole('checkbox', { name: 'Send invitation by e-mail' });
    expect(box).toHaveAccessibleDescription('The link is shown either way.');
    await userEvent.click(screen.getByText('Send invitation by e-mail'));
    expect(box).toBeChecked();
  });

  it('keeps a hidden label for screen readers (a row’s selection)', () => {
    render(<Checkbox label="Select Budget.pdf" hideLabel checked={false} onChange={() => {}} />);
    expect(screen.getByRole('checkbox', { name: 'Select Budget.pdf' })).toBeInTheDocument();
    expect(screen.getByText('Select Budget.pdf')).toHaveClass('sr-only');
  });
});

describe('Tabs', () => {
  function Harness() {
    const [tab, setTab] = useState<'preview' | 'versions' | 'history'>('preview');
    return (
      <Tabs
        label="Document"
        tabs={[
          { value: 'preview', label: 'Preview' },
          { value: 'versions', label: 'Versions' },
          { value: 'history', label: 'History' },
        ]}
        selected={tab}
        onSelect={setTab}
      >
        <p>Showing {tab}</p>
      </Tabs>
    );
  }

  it('shows the selected tab’s panel, named by its tab', async () => {
    render(<Harness />);
    const list = screen.getByRole('tablist', { name: 'Document' });
    expect(within(list).getByRole('tab', { name: 'Preview' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('tabpanel', { name: 'Preview' })).toHaveTextContent('Showing preview');
    await userEvent.click(within(list).getByRole('tab', { name: 'History' }));
    expect(screen.getByRole('tabpanel', { name: 'History' })).toHaveTextContent('Showing history');
  });

  it('is one tab stop; the arrow keys, Home and End move between tabs and show them', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Before</button>
        <Harness />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(screen.getByRole('tab', { name: 'Preview' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Versions' })).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Showing versions');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'History' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Preview' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Showing history');
    await user.keyboard('{Home}');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Showing preview');
    // Tab leaves the row for the panel's content, not the next tab.
    expect(screen.getAllByRole('tab').filter((tab) => tab.tabIndex === 0)).toHaveLength(1);
  });
});

describe('DialogActions', () => {
  it('puts the safe choice first and the action last', () => {
    render(
      <DialogActions>
        <Button variant="secondary">Cancel</Button>
        <Button>Save</Button>
      </DialogActions>,
    );
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Cancel',
      'Save',
    ]);
    // Stacked on a phone with the action on top; in a row at the right on wider screens.
    expect(screen.getByRole('button', { name: 'Save' }).parentElement!.className).toContain(
      'flex-col-reverse',
    );
  });
});

describe('AuthLayout', () => {
  it('is the page’s main content: the heading, its line, then the form', () => {
    render(
      <AuthLayout icon={KeyRound} title="Set a new password" description="Choose it now.">
        <form aria-label="New password" />
      </AuthLayout>,
    );
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1 })).toHaveTextContent('Set a new password');
    expect(within(main).getByText('Choose it now.')).toBeInTheDocument();
    expect(within(main).getByRole('form', { name: 'New password' })).toBeInTheDocument();
  });

  it('marks a screen that refuses a link with the danger colours', () => {
    render(<AuthLayout icon={XCircle} tone="danger" title="Invalid Link" />);
    const sign = screen.getByRole('heading', { name: 'Invalid Link' }).previousElementSibling!;
    expect(sign.className).toContain('text-destructive-600');
  });
});

describe('FileDrop', () => {
  function Harness({ multiple = false }: { multiple?: boolean }) {
    const [files, setFiles] = useState<File[]>([]);
    return (
      <>
        <FormField label="New file" hint="Any file." error={files.length ? null : 'Choose one.'}>
          {(field) => (
            <FileDrop
              {...field}
              multiple={multiple}
              accept=".pdf"
              chosen={multiple ? null : (files[0] ?? null)}
              onFiles={setFiles}
            />
          )}
        </FormField>
        <output>{files.map((file) => file.name).join(', ')}</output>
      </>
    );
  }
  const pdf = (name: string) => new File(['%PDF'], name, { type: 'application/pdf' });

  it('is a picker named by its field, with the field’s hint and error', () => {
    render(<Harness />);
    const input = screen.getByLabelText('New file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', '.pdf');
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription('Any file. Choose one.');
    // Out of the tab order: the Browse button is the keyboard's way in.
    expect(input).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('button', { name: 'browse' })).toBeInTheDocument();
  });

  it('hands over chosen files and names the one chosen', async () => {
    render(<Harness />);
    await userEvent.upload(screen.getByLabelText('New file'), pdf('Policy 2026.pdf'));
    expect(screen.getByRole('status')).toHaveTextContent('Policy 2026.pdf');
    expect(screen.getByText('Policy 2026.pdf', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText(/Drop another file here, or/)).toBeInTheDocument();
    // The input is emptied, so choosing the same file again is seen.
    expect((screen.getByLabelText('New file') as HTMLInputElement).value).toBe('');
  });

  it('hands over dropped files, and several where it takes several', () => {
    render(<Harness multiple />);
    const zone = screen.getByText(/Drag and drop files here/).parentElement!;
    fireEvent.drop(zone, { dataTransfer: { files: [pdf('a.pdf'), pdf('b.pdf')] } });
    expect(screen.getByRole('status')).toHaveTextContent('a.pdf, b.pdf');
  });

  it('takes nothing while disabled', () => {
    render(
      <FileDrop
        aria-label="Files"
        disabled
        onFiles={() => {
          throw new Error('must not be called');
        }}
      />,
    );
    const zone = screen.getByText(/Drag and drop a file here/).parentElement!;
    fireEvent.drop(zone, { dataTransfer: { files: [pdf('a.pdf')] } });
    expect(screen.getByRole('button', { name: 'browse' })).toBeDisabled();
    expect(screen.getByLabelText('Files')).toBeDisabled();
  });
});

describe('useFormProblems', () => {
  function Form() {
    const { formRef, problems, report, clear } = useFormProblems<'name' | 'email'>();
    const [name, setName] = useState('');
    return (
      <form
        ref={formRef}
        onSubmit={(event) => {
          event.preventDefault();
          report({
            name: name ? undefined : 'Please enter a name.',
            email: 'Please enter an email.',
          });
        }}
      >
        <FormField label="Name" error={problems?.name}>
          {(field) => (
            <Input
              {...field}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clear('name');
              }}
            />
          )}
        </FormField>
        <FormField label="Email" error={problems?.email}>
          {(field) => <Input {...field} />}
        </FormField>
        <button type="submit">Send</button>
      </form>
    );
  }

  it('shows each problem under its field and puts the focus on the first one', async () => {
    render(<Form />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Please enter a name.');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Please enter an email.');
    expect(screen.getByLabelText('Name')).toHaveFocus();
  });

  it('lets a field’s problem go as it is corrected, leaving the focus where one types', async () => {
    render(<Form />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await userEvent.type(screen.getByLabelText('Name'), 'Ruth');
    expect(screen.getByLabelText('Name')).not.toBeInvalid();
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(screen.getByLabelText('Email')).toBeInvalid();
    // Sent again: the focus goes to what is still wrong.
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByLabelText('Email')).toHaveFocus();
  });
});
