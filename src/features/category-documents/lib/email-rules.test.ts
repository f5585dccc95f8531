import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_WARNING_BYTES,
  attachmentsTooLarge,
  totalAttachmentSize,
} from './attachments.ts';
import { parseRecipients } from './email-addresses.ts';

describe('parseRecipients', () => {
  it('splits on commas, trims and drops empty entries', () => {
    expect(parseRecipients(' pastor@grace.org ,, office@grace.org , ')).toEqual({
      valid: ['pastor@grace.org', 'office@grace.org'],
      invalid: [],
    });
  });

  it('drops repeated addresses, ignoring case', () => {
    expect(parseRecipients('a@b.org, A@B.org').valid).toEqual(['a@b.org']);
  });

  it('reports entries that are not addresses', () => {
    expect(parseRecipients('ok@grace.org, pastor, a@b, two words@x.org, x@y.z')).toEqual({
      valid: ['ok@grace.org'],
      invalid: ['pastor', 'a@b', 'two words@x.org', 'x@y.z'],
    });
  });

  it('finds nothing in a field of only commas and spaces', () => {
    expect(parseRecipients(' , ,')).toEqual({ valid: [], invalid: [] });
  });
});

describe('attachment size', () => {
  const MB = 1024 * 1024;

  it('adds up the sizes', () => {
    expect(totalAttachmentSize([{ size: 10 }, { size: 32 }])).toBe(42);
  });

  it('warns only above 25MB in total', () => {
    expect(ATTACHMENT_WARNING_BYTES).toBe(25 * MB);
    expect(attachmentsTooLarge([{ size: 25 * MB }])).toBe(false);
    expect(attachmentsTooLarge([{ size: 20 * MB }, { size: 5 * MB + 1 }])).toBe(true);
    expect(attachmentsTooLarge([])).toBe(false);
  });
});
