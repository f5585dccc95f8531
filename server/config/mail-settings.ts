import type { MailLimits } from './mail-limit-settings.ts';
import { readMailLimits } from './mail-limit-settings.ts';
import { tableAt, type TomlTable } from './toml.ts';
import {
  integerSetting,
  stringListSetting,
  stringSetting,
  booleanSetting,
  type SettingSource,
} from './values.ts';

/** How to reach the SMTP server: a URL, or the fields of config.toml `[auth.email.smtp]`. */
export type SmtpSettings =
  | { url: string }
  | { host: string; port: number; user: string | undefined; pass: string | undefined };

export interface MailSettings {
  /** Null when no SMTP is configured: messages stay in the Outbox, and the app says so. */
  smtp: SmtpSettings | null;
  /** The From of every message: `[auth.email.smtp] admin_email` and `sender_name`. */
  sender: { address: string; name: string };
  /** How much e-mail people may cause, per installation and per organisation. */
  limits: MailLimits;
  /**
   * Hosts (`host` or `host:port`) an organisation's own SMTP server may be on although they are
   * private or local, or on any port (steward.toml `[mail] organization_smtp_allowed_hosts`,
   * `ORGANIZATION_SMTP_ALLOWED_HOSTS`): otherwise only public addresses on 25, 465, 587, 2525.
   */
  organizationSmtpAllowedHosts: string[];
}

/** A browser's `<input type="email">` rule (WHATWG), as the database checks recipients. */
export const EMAIL_ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * The Supabase CLI's `env(NAME)` in config.toml: the value of variable NAME, so that a password
 * need not be written into a file that is committed.
 */
function fromEnvReference(value: string | undefined, env: NodeJS.ProcessEnv, where: string) {
  const match = value === undefined ? null : /^env\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(value);
  if (!match) return value;
  const resolved = env[match[1]!];
  if (resolved === undefined) throw new Error(`${where} names ${match[1]}, which is not set`);
  return resolved;
}

/**
 * Reads the SMTP server and the sender from `SMTP_URL` (`smtp://user:pass@host:587` or
 * `smtps://…:465`) or config.toml `[auth.email.smtp]` (the Supabase CLI's keys: `enabled`,
 * `host`, `port`, `user`, `pass`, `admin_email`, `sender_name`), the variable first. Neither:
 * no SMTP. With SMTP, a sender address is required (`admin_email` or `SMTP_ADMIN_EMAIL`). The
 * limits come from config.toml `[auth.rate_limit] email_sent` and steward.toml `[mail]`.
 */
export function readMailSettings(
  env: NodeJS.ProcessEnv = process.env,
  supabaseToml: TomlTable = {},
  stewardToml: TomlTable = {},
  stewardName = 'steward.toml',
): MailSettings {
  const smtpTable = tableAt(tableAt(tableAt(supabaseToml, 'auth'), 'email'), 'smtp');
  const where = 'config.toml [auth.email.smtp]';
  const from = (key: string, envName?: string): SettingSource => ({
    table: smtpTable,
    where,
    key,
    ...(envName ? { env: { vars: env, name: envName } } : {}),
  });

  let smtp: SmtpSettings | null = null;
  const url = env.SMTP_URL || undefined;
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('SMTP_URL must be a URL such as smtp://user:password@host:587');
    }
    if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
      throw new Error('SMTP_URL must start with smtp:// or smtps://');
    }
    smtp = { url };
  } else if (Object.keys(smtpTable).length > 0 && booleanSetting(from('enabled'), true)) {
    const host = stringSetting(from('host'), '');
    if (host === '') throw new Error(`${where} host is required when SMTP is enabled`);
    const port = integerSetting(from('port'), 587, 1);
    if (port > 65535) throw new Error(`${where} port must be a port number, got ${port}`);
    smtp = {
      host,
      port,
      user: fromEnvReference(stringSetting(from('user'), '') || undefined, env, `${where} user`),
      pass: fromEnvReference(stringSetting(from('pass'), '') || undefined, env, `${where} pass`),
    };
  }

  const address = stringSetting(from('admin_email', 'SMTP_ADMIN_EMAIL'), '');
  const name = stringSetting(from('sender_name', 'SMTP_SENDER_NAME'), 'Steward');
  if (smtp && address === '') {
    throw new Error(
      `${where} admin_email (or SMTP_ADMIN_EMAIL) is required: it is the sender of every message`,
    );
  }
  if (address !== '' && !EMAIL_ADDRESS.test(address)) {
    throw new Error(
      `${where} admin_email must be an e-mail address, got ${JSON.stringify(address)}`,
    );
  }
  if (/[\r\n"<>]/.test(name) || name.length > 100) {
    throw new Error(
      `${where} sender_name must be one line of at most 100 characters, without quotes or <>`,
    );
  }
  return {
    smtp,
    sender: { address: address || 'steward@localhost', name },
    limits: readMailLimits(env, supabaseToml, stewardToml, stewardName),
    organizationSmtpAllowedHosts: stringListSetting(
      {
        table: tableAt(stewardToml, 'mail'),
        where: `${stewardName} [mail]`,
        key: 'organization_smtp_allowed_hosts',
        env: { vars: env, name: 'ORGANIZATION_SMTP_ALLOWED_HOSTS' },
      },
      [],
    ),
  };
}
