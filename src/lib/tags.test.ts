import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTags, tagsToInput, visibleTags } from './tags.ts';

describe('parseTags', () => {
  it('splits on commas, trims and drops empties', () => {
    expect(parseTags(' insurance, 2025 ,, renewal ,')).toEqual(['insurance', '2025', 'renewal']);
  });

  it('is empty for blank input', () => {
    expect(parseTags('')).toEqual([]);
    expect(parseTags(' , ,  ')).toEqual([]);
  });

  it('keeps spaces inside a tag', () => {
    expect(parseTags('board minutes, youth camp')).toEqual(['board minutes', 'youth camp']);
  });

  it('round-trips with the edit form’s text for any tags without commas', () => {
    const tag = fc
      .string({ minLength: 1 })
      .map((text) => text.replaceAll(',', ' ').trim())
      .filter((text) => text.length > 0);
    fc.assert(
      fc.property(fc.array(tag), (tags) => {
        expect(parseTags(tagsToInput(tags))).toEqual(tags);
      }),
    );
  });
});

describe('visibleTags', () => {
  it('shows up to three tags', () => {
    expect(visibleTags(['a', 'b'])).toEqual({ shown: ['a', 'b'], hidden: 0 });
    expect(visibleTags(['a', 'b', 'c'])).toEqual({ shown: ['a', 'b', 'c'], hidden: 0 });
  });

  it('counts the rest for +N', () => {
    expect(visibleTags(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], hidden: 2 });
  });

  it('treats missing tags as none', () => {
    expect(visibleTags(null)).toEqual({ shown: [], hidden: 0 });
  });
});
