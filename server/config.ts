import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { AuthSettings } from './config/auth-settings.ts';
import { readAuthSettings } from './config/auth-settings.ts';
import type { RequestSettings, SharingSettings } from './config/link-settings.ts';
import { readRequestSettings, readSharingSettings } from './config/link-settings.ts';
import type { MailSettings } from './config/mail-settings.ts';
import { readMailSettings } from './config/mail-settings.ts';
import type { PreviewSettings } from './config/preview-settings.ts';
import { readPreviewSettings } from './config/preview-settings.ts';
import type { TextExtractionSettings } from './config/text-extraction-settings.ts';
import { readTextExtractionSettings } from './config/text-extraction-settings.ts';
import type { TransferSettings } from './config/transfer-settings.ts';
import { readTransferSettings } from './config/transfer-settings.ts';
import type { ObjectStorageSettings } from './config/object-storage-settings.ts';
import { readObjectStorageSettings } from './config/object-storage-settings.ts';
import { readTomlFile, tableAt, type TomlTable } from './config/toml.ts';
import type { SettingSource } from './config/values.ts';
import { trustedProxiesSetting } from './config/trusted-proxies.ts';
import {
  booleanSetting,
  byteSizeSetting,
  durationSetting,
  integerSetting,
  choiceSetting,
  stringListSetting,
} from './config/values.ts';

export type { AuthSettings } from './config/auth-settings.ts';
export type { MailSettings, SmtpSettings } from './config/mail-settings.ts';
export type { MailLimits } from './config/mail-limit-settings.ts';

/** `/rest/v1` bounds: what one request may ask for, checked before it reaches the database. */
export interface ApiSettings {
  /** `[api] max_rows` of config.toml: PostgREST's db-max-rows, also per embedded level. */
  maxRows: number;
  /** Deepest nesting of embedded resources in a `select=` (steward.toml `[api] max_embed_depth`). */
  maxEmbedDepth: number;
  /** Most items in one `select=` list, all levels together (`[api] max_select_items`). */
  maxSelectItems: number;
  /**
   * Most bytes of embedded resources in one answer, all its rows together (steward.toml
   * `[api] max_embedded_size`): nested embeds multiply rows, so this bounds what one short
   * request can make the database build.
   */
  maxEmbeddedBytes: number;
  /**
   * Most bytes of text the pattern and full-text filters of one request may read, all rows
   * together (steward.toml `[api] max_filtered_text`; regular expressions count 8 times,
   * full-text search on a text column 16 times): see server/rest/sql-filter.ts.
   */
  maxFilteredTextBytes: number;
  /**
   * How a request's transaction ends (steward.toml `[api] db_tx_end`, PostgREST's `db-tx-end`):
   * `commit` or `rollback`, and with `-allow-override` a request may choose with `Prefer:
   * tx=commit` or `tx=rollback`.
   */
  txEnd: TxEnd;
}

export const TX_ENDS = [
  'commit',
  'commit-allow-override',
  'rollback',
  'rollback-allow-override',
] as const;
export type TxEnd = (typeof TX_ENDS)[number];

/** Database roles whose statements are bounded in time. */
export type TimedRole = 'anon' | 'authenticated' | 'service_role';

export interface DatabaseSettings {
  /**
   * Longest a request's statements may run, per role, in milliseconds (steward.toml
   * `[database] statement_timeout_<role>`; Supabase: anon 3 s, authenticated 8 s). Work of the
   * server itself (sign-in, storage bookkeeping) counts as `service_role`.
   */
  statementTimeoutMs: Record<TimedRole, number>;
  /**
   * Whether PostgreSQL connections keep the REST statements prepared (`[database]
   * prepared_statements`, PostgREST's `db-prepared-statements`; on by default, as there). Off
   * for a pooler in transaction mode that does not carry prepared statements.
   */
  preparedStatements: boolean;
}

export interface StorageSettings {
  /** `[storage] file_size_limit` of config.toml: the largest object any bucket accepts. */
  fileSizeLimit: number;
  /** Bytes one organisation may store in all (steward.toml `[storage] quota_per_organization`). */
  quotaPerOrganization: number;
  /** Longest lifetime of a signed URL in seconds (steward.toml `[storage] max_signed_url_expiry`). */
  maxSignedUrlExpirySeconds: number;
  /** Where the bytes of stored files live (steward.toml `[object_storage]`). */
  objects: ObjectStorageSettings;
}

export const SERVER_ROLES = ['all', 'api', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];
export const SERVER_TARGETS = ['embedded', 'hosted'] as const;
/** Whose database and files a process works on: Steward's own, or a hosted Supabase project's. */
export type ServerTarget = (typeof SERVER_TARGETS)[number];

export interface FunctionsSettings {
  /** `[functions.<name>] verify_jwt`; a function not listed verifies JWTs, as on Supabase. */
  verifyJwt(functionName: string): boolean;
}

export interface WorkerSettings {
  /**
   * Threads of the pool for CPU-heavy work (steward.toml `[workers] cpu_threads`); by default
   * all cores but one, so that the thread answering HTTP keeps a core.
   */
  cpuThreads: number;
  /**
   * Child processes for work on members' files: text extraction and OCR, export and import
   * ZIPs (`[workers] background_processes`), at a lower priority than the threads that answer
   * requests.
   */
  backgroundProcesses: number;
  /**
   * Resident memory one background process may use, in bytes (`[workers]
   * background_memory_limit`): past it the process is killed and its file is not read.
   */
  backgroundMemoryLimit: number;
  /** Background jobs this process runs at once (steward.toml `[workers] job_concurrency`). */
  jobConcurrency: number;
  /** How often the job runner looks for due jobs and schedules (`[workers] job_poll_interval`). */
  jobPollIntervalMs: number;
}

export interface ReminderSettings {
  /**
   * How often the scheduler looks for organisations whose reminder hour has come (steward.toml
   * `[reminders] check_interval`, default 15 minutes, between 1 second and 1 hour).
   */
  checkIntervalMs: number;
}

export interface TrashSettings {
  /**
   * How long a deleted document stays in its organisation's trash before the scheduler deletes
   * it for ever (steward.toml `[trash] retention`, default 30 days, at least 1 minute).
   */
  retentionMs: number;
}

export interface OAuthSettings {
  /**
   * Hosts, besides those of the provider catalogue, that a provider's token and authorisation
   * addresses may name (steward.toml `[oauth] allowed_hosts`).
   */
  allowedHosts: string[];
}

/** Runtime settings of the embedded backend, read once at start-up. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** When set, PostgreSQL is used instead of PGlite. */
  databaseUrl: string | undefined;
  /** When set, overrides the secret generated and kept in `dataDir`. */
  jwtSecret: string | undefined;
  /** Directory of the built SPA. */
  distDir: string;
  /** Repository root. */
  rootDir: string;
  /** The Supabase project folder: `config.toml`, `migrations/` (`SUPABASE_DIR`). */
  supabaseDir: string;
  /** Edge functions served at `/functions/v1` (`FUNCTIONS_DIR`, default `{supabaseDir}/functions`). */
  functionsDir: string;
  /** Print one line per request. */
  logRequests: boolean;
  /**
   * What this process does (steward.toml `[server] role`, `STEWARD_ROLE`): `all` (the default)
   * serves HTTP and runs the background work, `api` only serves HTTP, `worker` only runs the
   * background work. Several processes on one PostgreSQL and one bucket share the work
   * (docs/several-processes.md).
   */
  role: ServerRole;
  /**
   * Whose database and files (steward.toml `[server] target`, `STEWARD_TARGET`): `embedded`
   * (the default) Steward's own, migrated by it; `hosted` a hosted Supabase project's, whose
   * Storage holds the files under their names (a worker only, see docs/hosted-parity.md).
   */
  target: ServerTarget;
  /**
   * Load balancers and reverse proxies whose `X-Forwarded-For` names the client (steward.toml
   * `[server] trusted_proxies`, `STEWARD_TRUSTED_PROXIES`): addresses, CIDR ranges or
   * proxy-addr's `loopback`, `linklocal`, `uniquelocal`. Empty (the default): the header is
   * ignored and the TCP peer is the client (server/http/client-address.ts).
   */
  trustedProxies: string[];
  auth: AuthSettings;
  /** E-mail: the SMTP server (`SMTP_URL` or config.toml `[auth.email.smtp]`) and the sender. */
  mail: MailSettings;
  api: ApiSettings;
  database: DatabaseSettings;
  storage: StorageSettings;
  functions: FunctionsSettings;
  oauth: OAuthSettings;
  workers: WorkerSettings;
  reminders: ReminderSettings;
  trash: TrashSettings;
  /** Export and import of an organisation (steward.toml `[transfer]`). */
  transfer: TransferSettings;
  /** Limits of reading documents' text in the background (steward.toml `[text_extraction]`). */
  textExtraction: TextExtractionSettings;
  /** Word and Excel previews (steward.toml `[previews]`). */
  previews: PreviewSettings;
  /** Share links (steward.toml `[sharing]`). */
  sharing: SharingSettings;
  /** Document requests (steward.toml `[requests]`). */
  requests: RequestSettings;
}

const rootDir = path.resolve(import.meta.dirname, '..');

function source(
  table: TomlTable,
  where: string,
  key: string,
  env?: NodeJS.ProcessEnv,
  envName?: string,
): SettingSource {
  return { table, where, key, ...(env && envName ? { env: { vars: env, name: envName } } : {}) };
}

/** Threads for CPU-heavy work when nothing is configured: all cores but one, at least one. */
function defaultCpuThreads(): number {
  // One core stays with the thread that answers HTTP (and the database), so a burst of heavy
  // work slows other heavy work down, never the answers everyone else waits for.
  return Math.max(1, availableParallelism() - 1);
}

/** The app's own signed links last an hour (spec §9): a shorter longest link would break them. */
const APP_SIGNED_URL_SECONDS = 3600;

function signedUrlExpirySeconds(setting: SettingSource): number {
  const seconds = Math.round(durationSetting(setting, 7 * 86_400_000) / 1000);
  if (seconds < APP_SIGNED_URL_SECONDS) {
    const name = setting.env?.vars[setting.env.name]
      ? setting.env.name
      : `${setting.where} ${setting.key}`;
    throw new Error(`${name} must be at least "1h": the app's own signed links last an hour`);
  }
  return seconds;
}

/**
 * Reads the environment, `supabase/config.toml` (the Supabase CLI's project file: only keys the
 * CLI knows, since it refuses others) and `steward.toml` (Steward's own settings, for which
 * Supabase has no key). A variable overrides a file; a bad value stops the start-up.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  }
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new Error('JWT_SECRET must be at least 32 characters long');
  }
  const supabaseDir = path.resolve(env.SUPABASE_DIR ?? path.join(rootDir, 'supabase'));
  const supabaseToml = readTomlFile(path.join(supabaseDir, 'config.toml'));
  const stewardFile = path.resolve(env.STEWARD_CONFIG ?? path.join(rootDir, 'steward.toml'));
  const stewardToml = readTomlFile(stewardFile);
  const stewardName = path.basename(stewardFile);

  const api = tableAt(supabaseToml, 'api');
  const stewardApi = tableAt(stewardToml, 'api');
  const database = tableAt(stewardToml, 'database');
  const storage = tableAt(supabaseToml, 'storage');
  const stewardStorage = tableAt(stewardToml, 'storage');
  const functions = tableAt(supabaseToml, 'functions');
  const oauth = tableAt(stewardToml, 'oauth');
  const workers = tableAt(stewardToml, 'workers');
  const reminders = tableAt(stewardToml, 'reminders');
  const checkIntervalMs = durationSetting(
    source(
      reminders,
      `${stewardName} [reminders]`,
      'check_interval',
      env,
      'REMINDERS_CHECK_INTERVAL',
    ),
    15 * 60_000,
  );
  if (checkIntervalMs < 1000 || checkIntervalMs > 3_600_000) {
    throw new Error(`${stewardName} [reminders] check_interval must be between "1s" and "1h"`);
  }
  const retentionMs = durationSetting(
    source(
      tableAt(stewardToml, 'trash'),
      `${stewardName} [trash]`,
      'retention',
      env,
      'TRASH_RETENTION',
    ),
    30 * 86_400_000,
  );
  if (retentionMs < 60_000) {
    throw new Error(`${stewardName} [trash] retention must be at least "1m"`);
  }
  const timeout = (role: TimedRole, fallbackMs: number) =>
    durationSetting(
      source(
        database,
        `${stewardName} [database]`,
        `statement_timeout_${role}`,
        env,
        `STATEMENT_TIMEOUT_${role.toUpperCase()}`,
      ),
      fallbackMs,
    );

  const target = choiceSetting(
    source(
      tableAt(stewardToml, 'server'),
      `${stewardName} [server]`,
      'target',
      env,
      'STEWARD_TARGET',
    ),
    SERVER_TARGETS,
    'embedded',
  );
  const trustedProxies = trustedProxiesSetting(
    source(
      tableAt(stewardToml, 'server'),
      `${stewardName} [server]`,
      'trusted_proxies',
      env,
      'STEWARD_TRUSTED_PROXIES',
    ),
  );
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(rootDir, '.data')),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret,
    distDir: path.resolve(env.DIST_DIR ?? path.join(rootDir, 'dist')),
    rootDir,
    supabaseDir,
    functionsDir: path.resolve(env.FUNCTIONS_DIR ?? path.join(supabaseDir, 'functions')),
    logRequests: env.LOG_REQUESTS !== '0',
    role: choiceSetting(
      source(
        tableAt(stewardToml, 'server'),
        `${stewardName} [server]`,
        'role',
        env,
        'STEWARD_ROLE',
      ),
      SERVER_ROLES,
      'all',
    ),
    target,
    trustedProxies,
    auth: readAuthSettings(env, supabaseToml),
    mail: readMailSettings(env, supabaseToml, stewardToml, stewardName),
    api: {
      maxRows: integerSetting(
        source(api, 'config.toml [api]', 'max_rows', env, 'API_MAX_ROWS'),
        1000,
        1,
      ),
      maxEmbedDepth: integerSetting(
        source(stewardApi, `${stewardName} [api]`, 'max_embed_depth', env, 'API_MAX_EMBED_DEPTH'),
        3,
        0,
      ),
      maxSelectItems: integerSetting(
        source(stewardApi, `${stewardName} [api]`, 'max_select_items', env, 'API_MAX_SELECT_ITEMS'),
        200,
        1,
      ),
      maxEmbeddedBytes: byteSizeSetting(
        source(
          stewardApi,
          `${stewardName} [api]`,
          'max_embedded_size',
          env,
          'API_MAX_EMBEDDED_SIZE',
        ),
        8 * 1024 ** 2,
      ),
      maxFilteredTextBytes: byteSizeSetting(
        source(
          stewardApi,
          `${stewardName} [api]`,
          'max_filtered_text',
          env,
          'API_MAX_FILTERED_TEXT',
        ),
        8 * 1024 ** 2,
      ),
      txEnd: choiceSetting(
        source(stewardApi, `${stewardName} [api]`, 'db_tx_end', env, 'API_DB_TX_END'),
        TX_ENDS,
        'commit',
      ),
    },
    database: {
      statementTimeoutMs: {
        anon: timeout('anon', 3_000),
        authenticated: timeout('authenticated', 8_000),
        service_role: timeout('service_role', 30_000),
      },
      preparedStatements: booleanSetting(
        source(
          database,
          `${stewardName} [database]`,
          'prepared_statements',
          env,
          'DB_PREPARED_STATEMENTS',
        ),
        true,
      ),
    },
    storage: {
      fileSizeLimit: byteSizeSetting(
        source(storage, 'config.toml [storage]', 'file_size_limit', env, 'STORAGE_FILE_SIZE_LIMIT'),
        50 * 1024 ** 2,
      ),
      quotaPerOrganization: byteSizeSetting(
        source(
          stewardStorage,
          `${stewardName} [storage]`,
          'quota_per_organization',
          env,
          'STORAGE_QUOTA_PER_ORGANIZATION',
        ),
        10 * 1024 ** 3,
      ),
      maxSignedUrlExpirySeconds: signedUrlExpirySeconds(
        source(
          stewardStorage,
          `${stewardName} [storage]`,
          'max_signed_url_expiry',
          env,
          'STORAGE_MAX_SIGNED_URL_EXPIRY',
        ),
      ),
      // A hosted project's Storage names its own buckets (documents, exports…): none to set.
      objects: readObjectStorageSettings(env, stewardToml, stewardName, {
        bucketRequired: target !== 'hosted',
      }),
    },
    functions: {
      verifyJwt: (name) => tableAt(functions, name).verify_jwt !== false,
    },
    oauth: {
      allowedHosts: stringListSetting(
        source(oauth, `${stewardName} [oauth]`, 'allowed_hosts', env, 'OAUTH_ALLOWED_HOSTS'),
        [],
      ),
    },
    workers: {
      cpuThreads: integerSetting(
        source(workers, `${stewardName} [workers]`, 'cpu_threads', env, 'CPU_THREADS'),
        defaultCpuThreads(),
        1,
      ),
      backgroundProcesses: integerSetting(
        source(
          workers,
          `${stewardName} [workers]`,
          'background_processes',
          env,
          'BACKGROUND_PROCESSES',
        ),
        1,
        1,
      ),
      // A process needs about 100 MB to start (Node and the TypeScript loader).
      backgroundMemoryLimit: byteSizeSetting(
        source(
          workers,
          `${stewardName} [workers]`,
          'background_memory_limit',
          env,
          'BACKGROUND_MEMORY_LIMIT',
        ),
        768 * 1024 ** 2,
        128 * 1024 ** 2,
      ),
      jobConcurrency: integerSetting(
        source(workers, `${stewardName} [workers]`, 'job_concurrency', env, 'JOB_CONCURRENCY'),
        2,
        1,
      ),
      jobPollIntervalMs: durationSetting(
        source(workers, `${stewardName} [workers]`, 'job_poll_interval', env, 'JOB_POLL_INTERVAL'),
        1000,
      ),
    },
    reminders: { checkIntervalMs },
    trash: { retentionMs },
    transfer: readTransferSettings(env, stewardToml, stewardName),
    textExtraction: readTextExtractionSettings(env, stewardToml, stewardName),
    previews: readPreviewSettings(env, stewardToml, stewardName),
    sharing: readSharingSettings(env, stewardToml, stewardName),
    requests: readRequestSettings(env, stewardToml, stewardName),
  };
}
