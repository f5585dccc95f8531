/**
 * Where an organisation's own SMTP server may be (issue 24): an organisation's host is a way to
 * make the server connect anywhere, so only public unicast addresses on the usual SMTP ports
 * are allowed, unless the installation allows a host (`ORGANIZATION_SMTP_ALLOWED_HOSTS`,
 * steward.toml `[mail] organization_smtp_allowed_hosts`: `host` for any port, `host:port`).
 * The `organization-mail-server` function checks what an admin enters (a name is resolved only
 * when the server connects); the embedded delivery job checks every address the name resolves
 * to, then connects to a checked one (server/mail/organization-sender.ts).
 */
import ipaddr from 'ipaddr.js';

/** SMTP (25), submission over TLS (465), submission (587), and the common alternative (2525). */
export const USUAL_SMTP_PORTS: readonly number[] = [25, 465, 587, 2525];

/** A host name (letters, digits, dots and hyphens) or an IP address, as the database keeps it. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/;

/** `host` or `host:port`; an IPv6 address in brackets. */
const ALLOWED_HOST =
  /^(?<name>[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::(?<port>\d{1,5}))?$/;

interface AllowedHost {
  host: string;
  /** Undefined: any port. */
  port: number | undefined;
}

export class SmtpHostPolicy {
  private constructor(private readonly allowed: readonly AllowedHost[]) {}

  /** Reads the installation's allowed hosts; a malformed entry throws with its text. */
  static fromList(entries: readonly string[]): SmtpHostPolicy {
    return new SmtpHostPolicy(
      entries
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== '')
        .map((entry) => {
          const match = ALLOWED_HOST.exec(entry);
          if (!match?.groups) {
            throw new Error(
              `ORGANIZATION_SMTP_ALLOWED_HOSTS: "${entry}" is not a host name (optionally with :port)`,
            );
          }
          const port = match.groups.port === undefined ? undefined : Number(match.groups.port);
          return { host: match.groups.name!.replace(/^\[|\]$/g, ''), port };
        }),
    );
  }

  /** Whether the installation allows `host` on `port`, whatever its addresses. */
  allows(host: string, port: number): boolean {
    const name = host.toLowerCase();
    return this.allowed.some(
      (entry) => entry.host === name && (entry.port === undefined || entry.port === port),
    );
  }

  /**
   * Why an organisation may not use `host`:`port`, in words for the admin who entered it; null
   * when it may (a name still has to resolve to public addresses when the server connects).
   */
  problem(host: string, port: number): string | null {
    if (!HOST.test(host) || host.length > 253) {
      return 'Enter the mail server as a host name, such as smtp.example.org';
    }
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      return 'The port must be a number between 1 and 65535';
    }
    if (this.allows(host, port)) return null;
    if (!USUAL_SMTP_PORTS.includes(port)) {
      return `The port must be one of ${USUAL_SMTP_PORTS.join(', ')}`;
    }
    if (/^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host)) {
      return addressRefusal(host);
    }
    if (ipaddr.isValid(host)) return this.addressProblem(host, host, port);
    return null;
  }

  /**
   * Why the server may not connect to `address` (one that `host` resolved to): null for a
   * public unicast address, or any address of an allowed host.
   */
  addressProblem(host: string, address: string, port: number): string | null {
    if (this.allows(host, port)) return null;
    if (!ipaddr.isValid(address)) return addressRefusal(host);
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
    return ipaddr.process(address).range() === 'unicast' ? null : addressRefusal(host);
  }
}

function addressRefusal(host: string): string {
  return `The mail server ${host} is on a private or local network; enter a mail server on the internet`;
}
