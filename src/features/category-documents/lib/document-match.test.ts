import { describe, expect, it } from 'vitest';
import { documentMatchFilter, tagSpellings } from './document-match.ts';
import { searchDocuments } from './search-documents.ts';

describe('documentMatchFilter', () => {
  it('matches the category or any of the tag spellings, every value quoted', () => {
    expect(
      documentMatchFilter({
        documentCategory: 'Streaming: Video & Podcast',
        tags: tagSpellings('streaming', 'Streaming: Video & Podcast'),
      }),
    ).toBe(
      'category.eq."Streaming: Video & Podcast",tags.ov.{"streaming","Streaming: Video & Podcast","streaming: video & podcast"}',
    );
  });

  it('escapes quotes and backslashes so a value cannot end the filter early', () => {
    expect(documentMatchFilter({ documentCategory: null, tags: ['a"b\\c'] })).toBe(
      'tags.ov.{"a\\"b\\\\c"}',
    );
  });

  it('is empty when nothing identifies the page', () => {
    expect(documentMatchFilter({ documentCategory: null, tags: [] })).toBe('');
  });
});

describe('searchDocuments', () => {
  const documents = [
    { name: 'Budget 2026.xlsx', description: null, tags: ['finance'] },
    { name: 'Handbook.pdf', description: 'Staff HANDBOOK and policies', tags: [] },
    { name: 'Photo.jpg', description: null, tags: ['Easter', 'Outreach'] },
  ];

  it('finds by name, description or tag, ignoring case', () => {
    expect(searchDocuments(documents, 'budget').map(({ name }) => name)).toEqual([
      'Budget 2026.xlsx',
    ]);
    expect(searchDocuments(documents, 'policies').map(({ name }) => name)).toEqual([
      'Handbook.pdf',
    ]);
    expect(searchDocuments(documents, 'easter').map(({ name }) => name)).toEqual(['Photo.jpg']);
  });

  it('keeps everything for an empty query and nothing for an unmatched one', () => {
    expect(searchDocuments(documents, '  ')).toHaveLength(3);
    expect(searchDocuments(documents, 'sermon')).toHaveLength(0);
  });
});
