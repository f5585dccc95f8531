import { describe, expect, it } from 'vitest';
import { actorOf, changesOf, describeActivity } from './activity.ts';

describe('history entries in words', () => {
  it('describes each change with its old and new value', () => {
    const entry = {
      kind: 'document.updated',
      subject: 'Lease.pdf',
      details: {
        changes: {
          category: { old: 'HR', new: 'Legal' },
          tags: { old: [], new: ['hall', 'lease'] },
          expiry_date: { old: '2030-01-01', new: null },
        },
      },
    };
    expect(describeActivity(entry)).toBe('Edited the properties of "Lease.pdf"');
    expect(changesOf(entry)).toEqual([
      'category: HR → Legal',
      'tags: none → hall, lease',
      'expiry date: 2030-01-01 → none',
    ]);
  });

  it('names roles by their labels, and Steward for automatic work', () => {
    const entry = {
      kind: 'member.role_changed',
      subject: 'Ruth',
      details: { changes: { role: { old: 'user', new: 'admin' } } },
    };
    expect(describeActivity(entry)).toBe('Changed the role of Ruth');
    expect(changesOf(entry)).toEqual(['role: User → Admin']);
    expect(actorOf({ actor_name: null })).toBe('Steward (automatic)');
    expect(
      describeActivity({ kind: 'member.invited', subject: 'a@b.org', details: { role: 'admin' } }),
    ).toBe('Invited a@b.org as Admin');
    expect(
      describeActivity({ kind: 'member.two_factor_removed', subject: 'Ruth', details: {} }),
    ).toBe('Removed the two-factor sign-in of Ruth');
  });

  it('says who looked at a document in a restricted category', () => {
    expect(
      describeActivity({
        kind: 'document.viewed',
        subject: 'Payroll.xlsx',
        details: {},
        actor_name: 'Anna Smith',
      }),
    ).toBe('Viewed by Anna Smith');
    expect(
      describeActivity({
        kind: 'document.downloaded',
        subject: 'Payroll.xlsx',
        details: {},
        actor_name: null,
      }),
    ).toBe('Downloaded by Steward (automatic)');
  });

  it('describes exports and imports of the organisation', () => {
    const describe = (kind: string, details: Record<string, string | number | boolean>) =>
      describeActivity({ kind, subject: null, details });
    expect(describe('organization.export_started', { include_versions: true })).toBe(
      'Started an export of all documents, with earlier versions',
    );
    expect(describe('organization.exported', { documents: 1, size: 10 })).toBe(
      'Exported 1 document',
    );
    expect(describe('organization.imported', { documents: 12 })).toBe('Imported 12 documents');
    expect(
      describe('organization.import_failed', { reason: 'The file is not a valid ZIP archive' }),
    ).toBe('An import was refused: The file is not a valid ZIP archive');
  });
});
