import { describe, expect, it } from 'vitest';
import { svgDataUrl } from './svg-data-url.ts';

describe('svgDataUrl', () => {
  it('encodes the exact bytes, also beyond one slice and outside ASCII', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><title>Église ✝</title>${' '.repeat(70_000)}</svg>`;
    const bytes = new TextEncoder().encode(svg);
    const url = svgDataUrl(bytes.buffer);
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const decoded = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    expect(new TextDecoder().decode(decoded)).toBe(svg);
  });
});
