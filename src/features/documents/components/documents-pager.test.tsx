import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DocumentsPager } from './documents-pager.tsx';

describe('DocumentsPager', () => {
  it('says how many match, and which page of how many this is', () => {
    render(<DocumentsPager page={1} total={120} rowsOnPage={50} onPage={() => undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 51–100 of 120 documents');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('says "more than" when the server stopped counting, and offers the next page while this one is full', async () => {
    const onPage = vi.fn();
    const { rerender } = render(
      <DocumentsPager page={0} total={10000} capped rowsOnPage={50} onPage={onPage} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Showing 1–50 of more than 10,000 documents',
    );
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(1);

    // The last page of the matches: fewer rows than a page, so no next one.
    rerender(<DocumentsPager page={240} total={10000} capped rowsOnPage={7} onPage={onPage} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Showing 12,001–12,007 of more than 10,000 documents',
    );
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });
});
