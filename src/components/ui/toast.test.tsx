import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, ToastProvider, useToast, type ToastTone } from './toast.tsx';

function Trigger({ message, tone }: { message: string; tone?: ToastTone }) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast(message, tone)}>
      Send
    </button>
  );
}

function setup(message = 'Email sent successfully!', tone?: ToastTone) {
  render(
    <ToastProvider>
      <Trigger message={message} tone={tone} />
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

  it('keeps a failure on screen until it is dismissed, in the danger tone', () => {
    vi.useFakeTimers();
    const region = setup('Failed to delete document: permission denied', 'error');
    act(() => screen.getByRole('button', { name: 'Send' }).click());
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 5));
    const notice = screen.getByText('Failed to delete document: permission denied').parentElement!;
    expect(notice).toHaveAttribute('data-tone', 'danger');
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).click());
    expect(region).toBeEmptyDOMElement();
  });

  it('shows information in its own tone, and lets it go by itself', () => {
    vi.useFakeTimers();
    const region = setup('Ask an admin to invite someone.', 'info');
    act(() => screen.getByRole('button', { name: 'Send' }).click());
    expect(screen.getByText('Ask an admin to invite someone.').parentElement).toHaveAttribute(
      'data-tone',
      'info',
    );
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(region).toBeEmptyDOMElement();
  });
});
