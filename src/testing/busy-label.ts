import { screen } from '@testing-library/react';

/**
 * Watches for a button named `name` while `action` runs, and tells whether it appeared and
 * whether it was always disabled. A busy label ("Signing in...") lasts only as long as the
 * request, which the real test backend may answer before `action` (a user-event click) even
 * returns, so it is recorded as the DOM changes rather than looked up afterwards.
 */
export async function watchBusyButton(
  name: string,
  action: () => Promise<void>,
): Promise<{ seen: boolean; alwaysDisabled: boolean }> {
  const states: boolean[] = [];
  const record = () => {
    const button = screen.queryByRole('button', { name });
    if (button) states.push((button as HTMLButtonElement).disabled);
  };
  const observer = new MutationObserver(record);
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
  });
  try {
    await action();
    record();
  } finally {
    observer.disconnect();
  }
  return { seen: states.length > 0, alwaysDisabled: states.every(Boolean) };
}
