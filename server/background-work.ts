import type { AppContext } from './context.ts';
import type { FileTasks } from './file-tasks.ts';
import { ACCOUNT_MAIL_KIND, accountMailJob } from './mail/account-mail-job.ts';
import { MAIL_DELIVERY_KIND, mailDeliveryJob } from './mail/deliver-job.ts';
import { organizationSenders } from './mail/organization-sender.ts';
import { createMailTransport } from './mail/transport.ts';
import { REMINDER_RUN_KIND, reminderRunJob, reminderSchedule } from './reminders/reminder-run.ts';
import { EXTRACT_TEXT_JOB, extractTextJob } from './search/extract-text-job.ts';
import { CONVERT_LOGO_KIND, convertLogoJob } from './branding/convert-logo-job.ts';
import { REFRESH_SEARCH_JOB, refreshSearchJob } from './search/refresh-search-job.ts';
import {
  RESUMABLE_CLEANUP_KIND,
  resumableCleanupJob,
  resumableCleanupSchedule,
} from './housekeeping/abandoned-uploads.ts';
import {
  TABLE_MAINTENANCE_KIND,
  tableMaintenanceJob,
  tableMaintenanceSchedule,
} from './housekeeping/table-maintenance.ts';
import { trashPurgeSchedule } from './trash/purge-schedule.ts';
import { requestAllowanceCleanupSchedule } from './housekeeping/request-allowances.ts';
import { REMOVE_FILES_KIND, removeFilesJob } from './trash/remove-files-job.ts';
import { EXPORT_KIND, exportJob } from './transfer/export-job.ts';
import { transferExpirySchedule } from './transfer/expire-schedule.ts';
import { IMPORT_KIND, importJob } from './transfer/import-job.ts';
import type { JobKind } from './jobs/job-runner.ts';
import type { Schedule } from './jobs/scheduler.ts';
import type { ProcessPool } from './workers/process-pool.ts';
import { HostedStorage } from './storage/hosted-storage.ts';
import { openFileStore } from './storage/open-file-store.ts';
import { REMOVE_OBJECTS_KIND, removeObjectsJob } from './trash/remove-objects-job.ts';
import { LEAVING_FILES_RETRY, leavingFilesRetrySchedule } from './trash/leaving-files-schedule.ts';

/**
 * Every kind of background job and every schedule of the server, in one place. A feature adds
 * its kinds here (e.g. `document.extract-text`) and its schedules (e.g. daily reminders). It
 * stands above the features it names, so that none of them, nor `jobs/`, imports it; the
 * processes that read members' files (`file-tasks.ts`) reach the jobs that need them from here.
 */
export function backgroundWork(
  ctx: AppContext,
  backgroundProcesses: ProcessPool<FileTasks>,
): {
  kinds: Record<string, JobKind>;
  schedules: Record<string, Schedule>;
} {
  const transport = createMailTransport(ctx.config.mail);
  const { objects } = ctx.config.storage;
  // A hosted project's files are in its Storage, under their names (storage/hosted-storage.ts).
  const hosted =
    ctx.config.target === 'hosted' && objects.backend === 's3'
      ? new HostedStorage(
          ctx.config.dataDir,
          objects,
          // Its look-ups of a version's object come from jobs of every organisation, through the
          // file store's interface, which carries no job: they take the installation's job lane
          // with the jobs' deadline.
          ctx.db.scoped({ lane: 'job:installation', role: 'service_role' }),
        )
      : null;
  const store = hosted ?? openFileStore(ctx.config.dataDir, objects);
  const kinds: Record<string, JobKind> = {
    [MAIL_DELIVERY_KIND]: mailDeliveryJob(
      ctx,
      organizationSenders({
        installation: transport,
        dataDir: ctx.config.dataDir,
        allowedHosts: ctx.config.mail.organizationSmtpAllowedHosts,
      }),
      store,
    ),
    [ACCOUNT_MAIL_KIND]: accountMailJob(ctx, transport),
    [REMINDER_RUN_KIND]: reminderRunJob(ctx),
    [CONVERT_LOGO_KIND]: convertLogoJob({
      pool: backgroundProcesses,
      store,
      dataDir: ctx.config.dataDir,
      hostedStorage: hosted,
    }),
    [EXTRACT_TEXT_JOB]: extractTextJob({
      pool: backgroundProcesses,
      store,
      settings: ctx.config.textExtraction,
    }),
    [REFRESH_SEARCH_JOB]: refreshSearchJob(),
    [RESUMABLE_CLEANUP_KIND]: resumableCleanupJob(ctx.config.dataDir, objects),
    [REMOVE_FILES_KIND]: removeFilesJob(store, ctx.config.dataDir),
    [EXPORT_KIND]: exportJob({
      cpu: backgroundProcesses,
      store,
      retentionMs: ctx.config.transfer.exportRetentionMs,
      hostedStorage: hosted,
    }),
    [IMPORT_KIND]: importJob({
      cpu: backgroundProcesses,
      store,
      dataDir: ctx.config.dataDir,
      objects: ctx.config.storage.objects,
      settings: ctx.config.transfer,
      hostedStorage: hosted,
    }),
    [TABLE_MAINTENANCE_KIND]: tableMaintenanceJob(),
  };
  if (hosted) {
    // Hosted Storage writes objects under their names, with their rows: imports and logos are
    // written there. Resumable uploads are Storage's own (it keeps and expires them), not this
    // worker's.
    delete kinds[RESUMABLE_CLEANUP_KIND];
    kinds[REMOVE_OBJECTS_KIND] = removeObjectsJob(hosted);
  }
  return {
    kinds,
    schedules: {
      'reminders.daily': reminderSchedule(ctx.config.reminders.checkIntervalMs),
      ...(hosted
        ? { [LEAVING_FILES_RETRY]: leavingFilesRetrySchedule }
        : { [RESUMABLE_CLEANUP_KIND]: resumableCleanupSchedule }),
      'trash.purge': trashPurgeSchedule(),
      'transfer.expire': transferExpirySchedule(),
      // PostgreSQL vacuums and analyzes by itself (autovacuum); PGlite does not.
      ...(ctx.db.kind === 'pglite' ? { [TABLE_MAINTENANCE_KIND]: tableMaintenanceSchedule } : {}),
      // The request limits are counted in the database on PostgreSQL only (request-rate-limit.ts),
      // in the platform's own tables, which a hosted project does not have (its GoTrue counts).
      ...(ctx.db.kind === 'postgres' && !hosted
        ? { 'auth.forget-full-allowances': requestAllowanceCleanupSchedule }
        : {}),
    },
  };
}
