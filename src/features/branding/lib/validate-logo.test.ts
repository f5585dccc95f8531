import { describe, expect, it } from 'vitest';
import { logoFileProblem, MAX_LOGO_BYTES, MAX_LOGO_IMAGE_BYTES } from './validate-logo.ts';

describe('logoFileProblem', () => {
  it('accepts an SVG under 1MB', () => {
    expect(logoFileProblem({ name: 'logo.svg', type: 'image/svg+xml', size: 2048 })).toBeNull();
    expect(logoFileProblem({ name: 'LOGO.SVG', type: '', size: 10 })).toBeNull();
  });

  it('accepts a PNG, JPEG or WebP image under 5MB, for the server to convert', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
      expect(logoFileProblem({ name: 'logo', type, size: MAX_LOGO_IMAGE_BYTES - 1 })).toBeNull();
      expect(logoFileProblem({ name: 'logo', type, size: MAX_LOGO_IMAGE_BYTES })).toBe(
        'File size must be less than 5MB.',
      );
    }
  });

  it.each([
    { name: 'logo.gif', type: 'image/gif', size: 10 },
    { name: 'logo.svg.png', type: '', size: 10 },
    { name: 'logo.svg', type: 'text/html', size: 10 },
  ])('refuses $name ($type) as neither SVG nor an image it converts', (file) => {
    expect(logoFileProblem(file)).toBe('Please upload an SVG, PNG, JPEG or WebP file.');
  });

  it('refuses a file of 1MB or more', () => {
    const file = { name: 'logo.svg', type: 'image/svg+xml' };
    expect(logoFileProblem({ ...file, size: MAX_LOGO_BYTES - 1 })).toBeNull();
    expect(logoFileProblem({ ...file, size: MAX_LOGO_BYTES })).toBe(
      'File size must be less than 1MB.',
    );
  });
});
