import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What the shared page presents to preview and download the file of a link it has opened: a
 * short-lived grant, signed by the server, so that a password is checked once (with bcrypt, in
 * the CPU pool) and not again for every request of the page. A grant names its link and when it
 * ends; it is useless without the link's token, and the link itself is checked again on every
 * use, so revoking the link, its expiry, the trash or the maker's loss of access end it at once.
 */

/** How long a grant lasts: the page is opened again after that. */
export const GRANT_MS = 60 * 60_000;

const GRANT = /^([0-9a-f-]{36})\.(\d{13})\.([A-Za-z0-9_-]{43})$/;

export class AccessGrants {
  private readonly key: Buffer;

  constructor(jwtSecret: string) {
    // A key of its own, so that a grant can never pass for anything else the secret signs.
    this.key = createHmac('sha256', jwtSecret).update('steward share link access').digest();
  }

  private signature(linkId: string, endsAt: number): Buffer {
    return createHmac('sha256', this.key).update(`${linkId}.${endsAt}`).digest();
  }

  /** A grant for `linkId` until now + GRANT_MS (or `linkEndsAt`, if sooner). */
  issue(linkId: string, linkEndsAt: number, now = Date.now()): string {
    const endsAt = Math.min(now + GRANT_MS, linkEndsAt);
    return `${linkId}.${endsAt}.${this.signature(linkId, endsAt).toString('base64url')}`;
  }

  /** Whether `grant` is a grant of this server for `linkId` that has not ended. */
  verify(grant: string | undefined, linkId: string, now = Date.now()): boolean {
    const match = GRANT.exec(grant ?? '');
    if (!match || match[1] !== linkId) return false;
    const endsAt = Number(match[2]);
    if (endsAt <= now) return false;
    const given = Buffer.from(match[3]!, 'base64url');
    const expected = this.signature(linkId, endsAt);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
