import { lookup } from 'node:dns/promises';
import type { Queryable } from '../db/database.ts';
import { functionSecret } from '../functions/secrets.ts';
import { decryptToken, importTokenKey } from '../../supabase/functions/oauth/crypto.ts';
import { SmtpHostPolicy } from '../../supabase/functions/_shared/mail/smtp-host-policy.ts';
import {
  organizationPasswordContext,
  ORGANIZATION_MAIL_KEY,
  ORGANIZATION_MAIL_SECRET,
} from '../../supabase/functions/_shared/mail/organization-mail-key.ts';
import { smtpTransport } from '../../supabase/functions/_shared/mail/smtp.ts';
import type { MailTransport } from './transport.ts';
import { PermanentMailError } from './transport.ts';

/** How long resolving an organisation's mail server may take before the attempt fails. */
const LOOKUP_TIMEOUT_MS = 10_000;

interface ServerRow {
  host: string;
  port: number;
  username: string | null;
  password_ciphertext: string | null;
  from_address: string;
  organization_name: string;
}

/** Which transport sends an organisation's messages: its own server, else the installation's. */
export interface MailSenders {
  transportFor(db: Queryable, organizationId: string): Promise<MailTransport | null>;
}

/**
 * The organisation's own SMTP server when it set one in Settings › E-mail
 * (`public.organization_mail_servers`), else `installation` (null: no SMTP, the Outbox). The
 * password is decrypted here only, with the key the `organization-mail-server` function sealed
 * it with. The host is resolved for every message and every address it names is checked
 * (no loopback, private, link-local or metadata address unless the installation allows the
 * host); the connection then goes to a checked address, with the name kept for TLS, so that a
 * second lookup cannot lead it elsewhere. A refusal is a PermanentMailError: trying again
 * cannot help.
 */
export function organizationSenders(options: {
  installation: MailTransport | null;
  dataDir: string;
  allowedHosts: readonly string[];
  env?: NodeJS.ProcessEnv;
}): MailSenders {
  const policy = SmtpHostPolicy.fromList(options.allowedHosts);
  const env = options.env ?? process.env;
  let key: Promise<CryptoKey> | undefined;
  const cipherKey = () =>
    (key ??= (async () =>
      importTokenKey(
        env[ORGANIZATION_MAIL_KEY] ||
          (await functionSecret(options.dataDir, ORGANIZATION_MAIL_SECRET)),
      ))());

  async function serverOf(db: Queryable, organizationId: string): Promise<ServerRow | null> {
    const { rows } = await db.query<ServerRow>(
      `select m.host, m.port, m.username, m.password_ciphertext, m.from_address,
              o.name as organization_name
       from public.organization_mail_servers m
       join public.organizations o on o.id = m.organization_id
       where m.organization_id = $1`,
      [organizationId],
    );
    return rows[0] ?? null;
  }

  async function checkedAddress(host: string, port: number): Promise<string> {
    const problem = policy.problem(host, port);
    if (problem) throw new PermanentMailError(problem);
    let timer: NodeJS.Timeout | undefined;
    const addresses = await Promise.race([
      lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Looking up the mail server ${host} took too long`)),
          LOOKUP_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    if (addresses.length === 0) throw new Error(`The mail server ${host} was not found`);
    for (const { address } of addresses) {
      const refusal = policy.addressProblem(host, address, port);
      if (refusal) throw new PermanentMailError(refusal);
    }
    return addresses[0]!.address;
  }

  return {
    async transportFor(db, organizationId) {
      const server = await serverOf(db, organizationId);
      if (!server) return options.installation;
      let pass: string | undefined;
      if (server.username !== null && server.password_ciphertext !== null) {
        try {
          pass = await decryptToken(
            await cipherKey(),
            server.password_ciphertext,
            organizationPasswordContext(organizationId),
          );
        } catch {
          throw new PermanentMailError(
            'The mail server password could not be read; enter it again in Settings',
          );
        }
      }
      const address = await checkedAddress(server.host, server.port);
      return smtpTransport(
        {
          host: address,
          port: server.port,
          user: server.username ?? undefined,
          pass,
          servername: server.host,
        },
        { name: server.organization_name.replace(/[\r\n"<>]/g, ' '), address: server.from_address },
      );
    },
  };
}
