import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, ToastProvider, useToast } from './toast.tsx';

function Trigger({ message }: { message: string }) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast(message)}>
      Send
    </button>
  );
}

function setup() {
  render(
    <ToastProvider>
      <Trigger message="Email sent successfully!" />
    </ToastProvider>,
  );
  return screen.getByRole('log', { name: 'Notifications' });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('toasts', () => {
  it('shows a notice in a polite live region that is on the page before it', async () => {
    const region = setup();
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(region).toHaveTextContent('Email sent successfully!');
    // It does not take the focus from where the user works.
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
  });

  it('goes when dismissed', async () => {
    const region = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(region).toBeEmptyDOMElement();
  });

  it('goes by itself after a while, but not while the pointer rests on it', () => {
    vi.useFakeTimers();
    const region = setup();
    act(() => screen.getByRole('button', { name: 'Send' }).click());
    const notice = screen.getByText('Email sent successfully!').parentElement!;
    act(() => notice.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 2));
    expect(region).toHaveTextContent('Email sent successfully!');
    act(() => notice.dispatchEvent(new MouseEvent('mouseout', { bubbles: true })));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(region).toBeEmptyDOMElement();
  });
});
