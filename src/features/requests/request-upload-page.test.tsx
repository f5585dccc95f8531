import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createOrganization, serviceClient, type TestOrganization } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

/** A request of `org` with one handed-out link; returns the link's token and request. */
async function requestLink(org: TestOrganization, expiryRequired = true) {
  const { data, error } = await org.masterAdmin.client.rpc('create_document_request', {
    title: 'First-aid certificate',
    instructions: 'The whole page, please.',
    category: 'HR',
    tags: [],
    expiry_required: expiryRequired,
    due_date: null as unknown as string,
    ask_for_renewal: true,
    recipients: [{ name: 'Jo Leader' }],
  });
  if (error) throw error;
  return data[0]!;
}

describe('the request upload page', () => {
  // Sending itself is tested in a real browser (e2e/document-requests.spec.ts): jsdom's File
  // is not a Blob that Node's fetch can stream into a form.
  it('shows who asks for what, and asks for what the request needs before sending', async () => {
    const org = await createOrganization();
    const link = await requestLink(org);
    renderApp({ route: `/r/${link.token}` });

    expect(
      await screen.findByRole('heading', { name: 'First-aid certificate' }),
    ).toBeInTheDocument();
    expect(screen.getByText('The whole page, please.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Your name/)).toHaveValue('Jo Leader');

    await userEvent.clear(screen.getByLabelText(/Your name/));
    await userEvent.click(screen.getByRole('button', { name: 'Send document' }));
    expect(screen.getByText('Please enter your name')).toBeInTheDocument();
    expect(screen.getByText('Please enter the expiry date')).toBeInTheDocument();
    expect(screen.getByText('Please choose the file to send')).toBeInTheDocument();
    await userEvent.upload(
      screen.getByLabelText(/Document/),
      new File(['a script'], 'certificate.exe', { type: 'application/octet-stream' }),
      { applyAccept: false },
    );
    expect(
      screen.getByText('Please send a PDF, Word or Excel file, or a JPEG, PNG or GIF image.'),
    ).toBeInTheDocument();

    const { data } = await serviceClient()
      .from('document_request_recipients')
      .select('submitted_at')
      .eq('id', link.recipient_id!)
      .single();
    expect(data).toEqual({ submitted_at: null });
  });

  it('says when a link no longer works', async () => {
    renderApp({ route: `/r/${'0'.repeat(64)}` });
    expect(
      await screen.findByText(
        'This link no longer works. Please ask whoever sent it for a new one.',
      ),
    ).toBeInTheDocument();
  });
});
