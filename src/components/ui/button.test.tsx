import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Save } from 'lucide-react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ButtonLink } from './button-link.tsx';
import { Button } from './button.tsx';

describe('Button', () => {
  it('is a plain button that does what it is told on click, and never submits by accident', async () => {
    const onClick = vi.fn();
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button icon={Save} onClick={onClick}>
          Save
        </Button>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('reads its busy label and is disabled while busy', async () => {
    const onClick = vi.fn();
    const { rerender } = render(
      <Button busy busyLabel="Saving..." onClick={onClick}>
        Save Changes
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Saving...' });
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    rerender(
      <Button busy={false} busyLabel="Saving..." onClick={onClick}>
        Save Changes
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('styles a destructive action differently from a primary one', () => {
    render(
      <>
        <Button>Save</Button>
        <Button variant="destructive">Delete</Button>
      </>,
    );
    const save = screen.getByRole('button', { name: 'Save' }).className;
    const remove = screen.getByRole('button', { name: 'Delete' }).className;
    expect(remove).toContain('bg-destructive-600');
    expect(save).toContain('bg-primary-600');
    expect(save).not.toContain('destructive');
  });

  it('submits its form when it is a submit button', async () => {
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button type="submit">Send</Button>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});

describe('ButtonLink', () => {
  it('is a link to a page of the app that looks like a button', () => {
    render(
      <MemoryRouter>
        <ButtonLink to="/upload">Upload Documents</ButtonLink>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Upload Documents' });
    expect(link).toHaveAttribute('href', '/upload');
    expect(link.className).toContain('bg-primary-600');
  });
});
