import { useMutation } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { succeeded } from '../lib/errors.ts';
import type { MutationMeta } from '../lib/query-client.ts';
import { supabase } from '../lib/supabase.ts';
import { renderWithProviders } from '../testing/render.tsx';

/** A write the server refuses: there is no such function. */
const refusedWrite = () => succeeded(supabase().rpc('no_such_function' as never));

function Action({
  label,
  meta,
  run = refusedWrite,
  onError,
}: {
  label: string;
  meta?: MutationMeta;
  run?: () => Promise<unknown>;
  onError?: () => void;
}) {
  const action = useMutation({ mutationFn: run, meta, onError });
  return (
    <button type="button" onClick={() => action.mutate()}>
      {label}
    </button>
  );
}

const notices = () => screen.getByRole('log', { name: 'Notifications' });

describe('the one handler of failed mutations', () => {
  it("shows the mutation's words and the server's message as a notice in the danger tone", async () => {
    renderWithProviders(
      <Action label="Delete" meta={{ errorMessage: 'Failed to delete document' }} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const notice = await within(notices()).findByText(
      /^Failed to delete document: Could not find the function public\.no_such_function/,
    );
    expect(notice.parentElement).toHaveAttribute('data-tone', 'danger');
    // Nothing else asks for a decision: no dialog opens.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the error's own message without words of the mutation, and Unknown error without one", async () => {
    renderWithProviders(
      <>
        <Action label="Plain" />
        <Action label="Silent" run={() => Promise.reject(new Error(''))} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Plain' }));
    await within(notices()).findByText(/^Could not find the function public\.no_such_function/);
    await userEvent.click(screen.getByRole('button', { name: 'Silent' }));
    expect(await within(notices()).findByText('Unknown error')).toBeInTheDocument();
  });

  it('takes a whole sentence from a function of the error', async () => {
    renderWithProviders(
      <Action
        label="Upload logo"
        meta={{ errorMessage: () => 'Failed to upload logo.' }}
        run={() => Promise.reject(new Error('disk full'))}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(await within(notices()).findByText('Failed to upload logo.')).toBeInTheDocument();
  });

  it('leaves a failure to the form that shows it, and still runs what the mutation does on error', async () => {
    let formSawIt = false;
    renderWithProviders(
      <>
        <Action
          label="Sign in"
          meta={{ errorShownInPlace: true }}
          onError={() => {
            formSawIt = true;
          }}
        />
        <Action label="Other" meta={{ errorMessage: 'Failed to save' }} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await userEvent.click(screen.getByRole('button', { name: 'Other' }));
    await within(notices()).findByText(/^Failed to save: /);
    expect(formSawIt).toBe(true);
    expect(within(notices()).getAllByText(/Could not find the function/)).toHaveLength(1);
  });
});
