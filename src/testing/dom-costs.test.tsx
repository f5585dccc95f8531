import { fireEvent, render, screen } from '@testing-library/react';
import { stripVTControlCharacters } from 'node:util';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

// The set-up (setup.ts) installs dom-costs.ts for every component test: these check that the
// queries still see every change and that a failing query still prints the document.

function Panel() {
  const [open, setOpen] = useState(true);
  return (
    <div>
      <section data-testid="panel" style={{ visibility: open ? 'visible' : 'hidden' }}>
        <button type="button">Archive</button>
      </section>
      <button type="button" onClick={() => setOpen(false)}>
        Hide panel
      </button>
    </div>
  );
}

describe('what the component tests pay for queries (dom-costs.ts)', () => {
  it('answers again without computing anew while nothing in the document changed', () => {
    render(<button type="button">Archive</button>);
    const button = screen.getByRole('button', { name: 'Archive' });
    expect(window.getComputedStyle(button)).toBe(window.getComputedStyle(button));
    expect(button.ownerDocument.defaultView?.getComputedStyle(button)).toBe(
      window.getComputedStyle(button),
    );
  });

  it('sees a style changed by an attribute, an inline style, a class or a style sheet', () => {
    render(<Panel />);
    const panel = screen.getByTestId('panel');
    expect(screen.getByRole('button', { name: 'Archive' })).toBeVisible();

    panel.setAttribute('hidden', '');
    expect(window.getComputedStyle(panel).display).toBe('none');
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    panel.removeAttribute('hidden');
    expect(screen.getByRole('button', { name: 'Archive' })).toBeVisible();

    panel.style.display = 'none';
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    panel.style.display = '';
    expect(screen.getByRole('button', { name: 'Archive' })).toBeVisible();

    const sheet = document.createElement('style');
    sheet.textContent = '.folded { display: none }';
    document.head.append(sheet);
    try {
      expect(screen.getByRole('button', { name: 'Archive' })).toBeVisible();
      panel.className = 'folded';
      expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    } finally {
      sheet.remove();
    }
    expect(screen.getByRole('button', { name: 'Archive' })).toBeVisible();
  });

  it('sees an inherited value change after a render', () => {
    render(<Panel />);
    const archive = screen.getByRole('button', { name: 'Archive' });
    expect(window.getComputedStyle(archive).visibility).toBe('visible');
    fireEvent.click(screen.getByRole('button', { name: 'Hide panel' }));
    expect(window.getComputedStyle(archive).visibility).toBe('hidden');
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
  });

  it('prints the document once, as it was at the end, when a findBy query times out', async () => {
    const { container } = render(<button type="button">Archive</button>);
    setTimeout(() => {
      container.append(Object.assign(document.createElement('p'), { textContent: 'Later' }));
    }, 50);
    const error = await screen.findByText('Restore', {}, { timeout: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const { name } = error as Error;
    // prettyDOM colours the document where the terminal would.
    const message = stripVTControlCharacters((error as Error).message);
    expect(name).toBe('TestingLibraryElementError');
    expect(message).toMatch(/^Unable to find an element with the text: Restore\./);
    expect(message.match(/Ignored nodes: comments, script, style/g)).toHaveLength(1);
    expect(message).toMatch(/<button\s+type="button"\s*>\s*Archive\s*<\/button>/);
    expect(message).toMatch(/<p>\s*Later\s*<\/p>/);
  });

  it('prints the document when a getBy query fails outside waitFor', () => {
    render(<button type="button">Archive</button>);
    let message = '';
    try {
      screen.getByRole('button', { name: 'Restore' });
    } catch (error) {
      message = stripVTControlCharacters((error as Error).message);
    }
    expect(message).toMatch(
      /^Unable to find an accessible element with the role "button" and name "Restore"/,
    );
    expect(message).toMatch(/<button\s+type="button"\s*>\s*Archive/);
  });

  it('lists the matching elements when a findBy query finds several', async () => {
    render(
      <>
        <button type="button">Archive</button>
        <button type="button">Archive</button>
      </>,
    );
    const error = await screen
      .findByRole('button', { name: 'Archive' }, { timeout: 200 })
      .catch((e: unknown) => e);
    const message = stripVTControlCharacters((error as Error).message);
    expect(message).toMatch(/Found multiple elements with the role "button" and name "Archive"/);
    expect(message).toMatch(/Here are the matching elements:\s+Ignored nodes[^\n]*\n\s*<button/);
  });
});
