import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table.tsx';

interface Person {
  id: string;
  name: string;
  joined: string | null;
}

const columns: DataTableColumn<Person>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (row) => row.name,
    sortValue: (row) => row.name,
    mobile: 'title',
  },
  {
    key: 'joined',
    header: 'Joined',
    cell: (row) => row.joined ?? 'Never',
    sortValue: (row) => row.joined,
    mobile: 'detail',
  },
  { key: 'id', header: 'Id', cell: (row) => row.id },
];

const people: Person[] = [
  { id: 'b', name: 'Ruth', joined: '2025-03-01' },
  { id: 'a', name: 'aaron', joined: null },
  { id: 'c', name: 'Dana', joined: '2024-01-10' },
];

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('DataTable', () => {
  it('shows the rows in the given order under their column headers, with row actions', async () => {
    const onEdit = vi.fn();
    render(
      <DataTable
        label="People"
        columns={columns}
        rows={people}
        rowKey={(row) => row.id}
        rowActions={(row) => (
          <button type="button" onClick={() => onEdit(row.id)} aria-label={`Edit ${row.name}`}>
            Edit
          </button>
        )}
      />,
    );
    expect(screen.getByRole('region', { name: 'People' })).toBeInTheDocument();
    expect(screen.getByRole('table')).not.toHaveAccessibleName();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Joined',
      'Id',
      'Actions',
    ]);
    expect(names()).toEqual(['Ruth', 'aaron', 'Dana']);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '4');
    await userEvent.click(screen.getByRole('button', { name: 'Edit Dana' }));
    expect(onEdit).toHaveBeenCalledWith('c');
  });

  it('sorts by a column, ascending then descending, ignoring case, empty values last', async () => {
    render(<DataTable label="People" columns={columns} rows={people} rowKey={(row) => row.id} />);
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    expect(nameHeader).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('columnheader', { name: 'Id' })).not.toHaveAttribute('aria-sort');

    await userEvent.click(within(nameHeader).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(names()).toEqual(['aaron', 'Dana', 'Ruth']);
    await userEvent.click(within(nameHeader).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual(['Ruth', 'Dana', 'aaron']);

    const joined = screen.getByRole('columnheader', { name: 'Joined' });
    await userEvent.click(within(joined).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'none');
    expect(names()).toEqual(['Dana', 'Ruth', 'aaron']);
    await userEvent.click(within(joined).getByRole('button'));
    expect(names()).toEqual(['Ruth', 'Dana', 'aaron']);
  });

  it('labels the details a phone shows under the title, and leaves the others out there', () => {
    render(<DataTable label="People" columns={columns} rows={people} rowKey={(row) => row.id} />);
    const [title, detail, other] = within(screen.getAllByRole('row')[1]!).getAllByRole('cell');
    expect(detail).toHaveTextContent('Joined: 2025-03-01');
    expect(detail!.querySelector('span')).toHaveClass('sm:hidden');
    expect(screen.getAllByRole('rowgroup')[0]).toHaveClass('max-sm:hidden');
    expect(title!.className).toContain('max-sm:row-start-1');
    expect(other!.className).toContain('max-sm:hidden');
  });

  it('renders only the rows near the screen of a long list with fixed row heights', () => {
    const many = Array.from({ length: 2000 }, (_, index) => ({
      id: String(index),
      name: `Person ${index}`,
      joined: null,
    }));
    render(
      <DataTable
        label="People"
        columns={columns}
        rows={many}
        rowKey={(row) => row.id}
        rowHeight={{ wide: 48, phone: 72 }}
      />,
    );
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '2001');
    const rendered = screen.getAllByRole('row').length - 1;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(100);
    expect(names()[0]).toBe('Person 0');
  });

  it('names the table by its caption', () => {
    render(
      <DataTable
        label="People"
        caption="Members of the choir"
        columns={columns}
        rows={people}
        rowKey={(row) => row.id}
      />,
    );
    expect(screen.getByRole('table', { name: 'Members of the choir' })).toBeInTheDocument();
  });

  it('renders every row of a short list', () => {
    const few = Array.from({ length: 80 }, (_, index) => ({
      id: String(index),
      name: `P${index}`,
      joined: null,
    }));
    render(
      <DataTable
        label="People"
        columns={columns}
        rows={few}
        rowKey={(row) => row.id}
        rowHeight={{ wide: 48, phone: 72 }}
      />,
    );
    expect(screen.getAllByRole('row')).toHaveLength(81);
  });
});
