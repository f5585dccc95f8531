import { describe, expect, it } from 'vitest';
import { logoFileProblem, MAX_LOGO_BYTES } from './validate-logo.ts';

describe('logoFileProblem', () => {
  it('accepts an SVG under 1MB', () => {
    expect(logoFileProblem({ name: 'logo.svg', type: 'image/svg+xml', size: 2048 })).toBeNull();
    expect(logoFileProblem({ name: 'LOGO.SVG', type: '', size: 10 })).toBeNull();
  });

  it.each([
    { name: 'logo.png', type: 'image/png', size: 10 },
    { name: 'logo.svg.png', type: '', size: 10 },
    { name: 'logo.svg', type: 'text/html', size: 10 },
  ])('refuses $name ($type) as not SVG', (file) => {
    expect(logoFileProblem(file)).toBe('Please upload an SVG file only.');
  });

  it('refuses a file of 1MB or more', () => {
    const file = { name: 'logo.svg', type: 'image/svg+xml' };
    expect(logoFileProblem({ ...file, size: MAX_LOGO_BYTES - 1 })).toBeNull();
    expect(logoFileProblem({ ...file, size: MAX_LOGO_BYTES })).toBe(
      'File size must be less than 1MB.',
    );
  });
});
