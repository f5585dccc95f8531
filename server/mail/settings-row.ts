import type { MailSettings } from '../config.ts';
import type { Queryable } from '../db/database.ts';

/**
 * Tells the database how this installation delivers mail and how much of it people may cause
 * (`private.mail_settings`, migrations 20261127000500 and 20261128000501), so that the functions
 * that record a message can answer at once whether it will be sent or kept in the Outbox, and
 * take its recipients from the allowances. A database without those migrations has nothing to
 * set (the services' own tests run on the platform schema alone).
 */
export async function applyMailSettings(db: Queryable, mail: MailSettings): Promise<void> {
  const { rows } = await db.query<{ delivery: boolean; limits: boolean }>(
    `select to_regclass('private.mail_settings') is not null as delivery,
            exists (select 1 from information_schema.columns
                    where table_schema = 'private' and table_name = 'mail_settings'
                      and column_name = 'emails_per_hour') as limits`,
  );
  if (!rows[0]?.delivery) return;
  await db.query(
    `update private.mail_settings set delivery = $1, updated_at = now()
     where delivery is distinct from $1`,
    [mail.smtp ? 'smtp' : 'outbox'],
  );
  if (!rows[0].limits) return;
  const { limits } = mail;
  await db.query(
    `update private.mail_settings
        set emails_per_hour = $1,
            organization_emails_per_hour = $2,
            new_organization_emails_per_hour = $3,
            new_organization_period = make_interval(secs => $4::double precision / 1000),
            invitation_resend_interval = make_interval(secs => $5::double precision / 1000),
            updated_at = now()
      where (emails_per_hour, organization_emails_per_hour, new_organization_emails_per_hour,
             new_organization_period, invitation_resend_interval)
            is distinct from
            ($1, $2, $3, make_interval(secs => $4::double precision / 1000),
             make_interval(secs => $5::double precision / 1000))`,
    [
      limits.perInstallationPerHour,
      limits.perOrganizationPerHour,
      limits.newOrganizationPerHour,
      limits.newOrganizationPeriodMs,
      limits.invitationResendIntervalMs,
    ],
  );
}
