import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { FeedbackProvider } from '../feedback.tsx';
import { useLeaveGuard } from './use-leave-guard.ts';

const QUESTION = 'Files are still uploading. Leave anyway?';

function Work() {
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  useLeaveGuard(busy, QUESTION);
  return (
    <main>
      <h1>Upload</h1>
      <button type="button" onClick={() => setBusy((value) => !value)}>
        {busy ? 'Finish' : 'Start'}
      </button>
      <Link to="/documents">Documents</Link>
      <button type="button" onClick={() => navigate(-1)}>
        Back
      </button>
    </main>
  );
}

function setup() {
  render(
    <MemoryRouter initialEntries={['/', '/upload']} initialIndex={1}>
      <FeedbackProvider>
        <Routes>
          <Route path="/" element={<h1>Dashboard</h1>} />
          <Route path="/upload" element={<Work />} />
          <Route path="/documents" element={<h1>Documents</h1>} />
        </Routes>
      </FeedbackProvider>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

function unloadIsStopped(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('useLeaveGuard', () => {
  it('lets the user go where nothing would be lost', async () => {
    const user = setup();
    expect(unloadIsStopped()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Documents' }));
    expect(screen.getByRole('heading', { name: 'Documents' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks before following a link, and stays on Stay (the focused choice)', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await user.click(screen.getByRole('link', { name: 'Documents' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave this page?' });
    expect(dialog).toHaveTextContent(QUESTION);
    expect(within(dialog).getByRole('button', { name: 'Stay' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Upload' })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Documents' }));
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(screen.getByRole('heading', { name: 'Documents' })).toBeInTheDocument();
  });

  it('asks before going back, and lets the page go once the work is done', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Leave this page?' })).getByRole('button', {
        name: 'Stay',
      }),
    );
    expect(screen.getByRole('heading', { name: 'Upload' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('asks the browser to confirm closing or reloading the tab while it holds', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(unloadIsStopped()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(unloadIsStopped()).toBe(false);
  });
});
