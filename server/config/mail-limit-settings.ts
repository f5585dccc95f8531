import { tableAt, type TomlTable } from './toml.ts';
import { durationSetting, integerSetting, type SettingSource } from './values.ts';

/**
 * How much e-mail people may cause (migration 20261128000501): recipients an hour for the whole
 * installation and for each organisation, counted in the database so that every server process
 * on it shares the count. Reminder digests and messages kept in the Outbox do not count.
 */
export interface MailLimits {
  /**
   * config.toml `[auth.rate_limit] email_sent` (AUTH_RATE_LIMIT_EMAIL_SENT): recipients the
   * installation e-mails in an hour, all organisations and the auth service's own e-mails
   * together, as GoTrue counts its e-mails for the whole project.
   */
  perInstallationPerHour: number;
  /** steward.toml `[mail] per_organization_per_hour`: recipients one organisation e-mails an hour. */
  perOrganizationPerHour: number;
  /** `[mail] new_organization_per_hour`: the same during an organisation's first days. */
  newOrganizationPerHour: number;
  /** `[mail] new_organization_period`: how long an organisation counts as new, in milliseconds. */
  newOrganizationPeriodMs: number;
  /**
   * `[mail] invitation_resend_interval`: an address e-mailed an invitation is not e-mailed
   * another one from the same organisation within this time, in milliseconds.
   */
  invitationResendIntervalMs: number;
}

/** Reads the limits from config.toml and steward.toml, each overridable by its variable. */
export function readMailLimits(
  env: NodeJS.ProcessEnv,
  supabaseToml: TomlTable,
  stewardToml: TomlTable,
  stewardName: string,
): MailLimits {
  const rateLimit = tableAt(tableAt(supabaseToml, 'auth'), 'rate_limit');
  const mail = tableAt(stewardToml, 'mail');
  const fromSteward = (key: string, envName: string): SettingSource => ({
    table: mail,
    where: `${stewardName} [mail]`,
    key,
    env: { vars: env, name: envName },
  });
  return {
    perInstallationPerHour: integerSetting(
      {
        table: rateLimit,
        where: 'config.toml [auth.rate_limit]',
        key: 'email_sent',
        env: { vars: env, name: 'AUTH_RATE_LIMIT_EMAIL_SENT' },
      },
      500,
      1,
    ),
    perOrganizationPerHour: integerSetting(
      fromSteward('per_organization_per_hour', 'MAIL_PER_ORGANIZATION_PER_HOUR'),
      100,
      1,
    ),
    newOrganizationPerHour: integerSetting(
      fromSteward('new_organization_per_hour', 'MAIL_NEW_ORGANIZATION_PER_HOUR'),
      20,
      1,
    ),
    newOrganizationPeriodMs: durationSetting(
      fromSteward('new_organization_period', 'MAIL_NEW_ORGANIZATION_PERIOD'),
      7 * 86_400_000,
    ),
    invitationResendIntervalMs: durationSetting(
      fromSteward('invitation_resend_interval', 'MAIL_INVITATION_RESEND_INTERVAL'),
      3_600_000,
    ),
  };
}
