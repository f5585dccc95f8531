import { describe, expect, it } from 'vitest';
import { tagSpellings } from './document-match.ts';

describe('tagSpellings', () => {
  it('lists the key, the label and their lower-case forms, each once', () => {
    expect(tagSpellings('streaming', 'Streaming: Video & Podcast')).toEqual([
      'streaming',
      'Streaming: Video & Podcast',
      'streaming: video & podcast',
    ]);
  });
});
