import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorPanel, FormError } from './form-error.tsx';
import { FormField, Input } from './form-field.tsx';

describe('FormField', () => {
  it('labels its control and describes it with the hint', () => {
    render(
      <FormField label="Website URL" hint="Starting with https://." required>
        {(props) => <Input {...props} type="url" />}
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: /Website URL/ });
    expect(input).toHaveAccessibleDescription('Starting with https://.');
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(input).not.toBeInvalid();
    expect(input).not.toHaveAttribute('invalid');
  });

  it('marks the control invalid and reads the error with it', () => {
    render(
      <FormField label="Name" error="Please enter a name.">
        {(props) => <Input {...props} />}
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription('Please enter a name.');
    expect(input.className).toContain('border-destructive-500');
  });

  it('can keep its label for screen readers only', () => {
    render(
      <FormField label="Search documents" hideLabel>
        {(props) => <Input {...props} type="search" />}
      </FormField>,
    );
    expect(screen.getByRole('searchbox', { name: 'Search documents' })).toBeInTheDocument();
    expect(screen.getByText('Search documents')).toHaveClass('sr-only');
  });
});

describe('FormError and ErrorPanel', () => {
  it('announces a form error and shows nothing without one', () => {
    const { rerender } = render(<FormError>{null}</FormError>);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    rerender(<FormError>Could not save: permission denied</FormError>);
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save: permission denied');
  });

  it('shows a load failure with its reason and what to do', () => {
    render(
      <ErrorPanel title="Error Loading Document" heading actions={<button>Try again</button>}>
        Failed to load document content
      </ErrorPanel>,
    );
    const panel = screen.getByRole('alert');
    expect(panel).toHaveTextContent('Failed to load document content');
    expect(screen.getByRole('heading', { name: 'Error Loading Document' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
