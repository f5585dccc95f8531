import { screen, within } from '@testing-library/react';

/** The region of notices (toasts): successes, information and failed actions. */
export const notices = (): HTMLElement => screen.getByRole('log', { name: 'Notifications' });

/** Waits for a notice with this text, as the person reads it. */
export const findNotice = (text: string | RegExp): Promise<HTMLElement> =>
  within(notices()).findByText(text);
