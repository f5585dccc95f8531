import { createHash, randomBytes } from 'node:crypto';

/**
 * Every file of the load test starts with a header naming its organisation, so a download can
 * prove it belongs to the caller's organisation without asking the server anything.
 */
const header = (organizationId: string) => `Steward load test\norganization:${organizationId}\n`;

/** A small text file (about 1 to 16 KB) of `organizationId`. */
export function fileContent(organizationId: string, label: string): Buffer {
  const padding = randomBytes(512 + Math.floor(Math.random() * 7680)).toString('hex');
  return Buffer.from(`${header(organizationId)}${label}\n${padding}\n`);
}

/** The organisation a downloaded file says it belongs to, or null if it has no header. */
export function organizationOfContent(content: Buffer): string | null {
  const match = /^Steward load test\norganization:([0-9a-f-]{36})\n/.exec(
    content.subarray(0, 80).toString('utf8'),
  );
  return match ? match[1]! : null;
}

export const sha256 = (content: Buffer | Uint8Array) =>
  createHash('sha256').update(content).digest('hex');

const WORDS = [
  'Board minutes',
  'Insurance policy',
  'Youth camp budget',
  'Payroll report',
  'Volunteer schedule',
  'Building lease',
  'Sermon notes',
  'Safeguarding policy',
  'Grant application',
  'Annual accounts',
];

/** A document name, as a church office would name it. */
export const documentName = (n: number) => `${WORDS[n % WORDS.length]} ${n}.txt`;

/** A term a user might type into the search box (a word of the names above). */
export const searchTerm = (n: number) =>
  WORDS[n % WORDS.length]!.split(' ')[n % 2 === 0 ? 0 : 1]!.toLowerCase();
