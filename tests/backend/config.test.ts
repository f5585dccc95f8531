import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';

// The server's configuration: supabase/config.toml for what the Supabase CLI has keys for,
// steward.toml for the rest, variables over both, and a clear stop on anything malformed.
let dir: string;
let supabaseDir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steward-config-'));
  supabaseDir = path.join(dir, 'supabase');
  await import('node:fs/promises').then((fs) => fs.mkdir(supabaseDir));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function configFrom(supabase: string, steward: string, env: Record<string, string> = {}) {
  await writeFile(path.join(supabaseDir, 'config.toml'), supabase);
  await writeFile(path.join(dir, 'steward.toml'), steward);
  return readConfig({
    SUPABASE_DIR: supabaseDir,
    STEWARD_CONFIG: path.join(dir, 'steward.toml'),
    ...env,
  });
}

describe('server configuration', () => {
  it("reads the project's own files: config.toml and steward.toml", () => {
    const config = readConfig({});
    expect(config.api.maxRows).toBe(1000);
    // PostgREST's default: every transaction commits, whatever the request prefers.
    expect(config.api.txEnd).toBe('commit');
    expect(config.auth.enableSignup).toBe(true);
    // Unset: links follow the address the server listens on (ctx.siteUrl()).
    expect(config.auth.siteUrl).toBeUndefined();
    expect(config.auth.emailOtpExpirySeconds).toBe(3600);
    expect(config.auth.emailMaxFrequencyMs).toBe(60_000);
    expect(config.auth.doubleConfirmChanges).toBe(true);
    expect(config.auth.securePasswordChange).toBe(false);
    expect(config.storage.fileSizeLimit).toBe(50 * 1024 ** 2);
    expect(config.database.statementTimeoutMs).toEqual({
      anon: 3000,
      authenticated: 8000,
      service_role: 30000,
    });
    expect(config.database.preparedStatements).toBe(true);
    expect(config.functions.verifyJwt('oauth')).toBe(true);
    // Calendar applications send no JWT: the secret address is the credential.
    expect(config.functions.verifyJwt('calendar')).toBe(false);
    // All cores but one for CPU-heavy work, at least one thread.
    expect(config.workers.cpuThreads).toBe(Math.max(1, os.availableParallelism() - 1));
    expect(config.textExtraction).toEqual({
      timeoutMs: 120_000,
      maxPages: 200,
      maxOcrPages: 20,
      maxCharacters: 200_000,
      maxImagePixels: 25_000_000,
      maxUnpackedBytes: 16 * 1024 ** 2,
    });
    // One background process of at most 768 MiB: with the server's own process, within 1.5 GiB.
    expect(config.workers.backgroundProcesses).toBe(1);
    expect(config.workers.backgroundMemoryLimit).toBe(768 * 1024 ** 2);
  });

  it('takes Supabase keys from config.toml and Steward keys from steward.toml', async () => {
    const config = await configFrom(
      `[api]\nmax_rows = 50\n[auth]\nenable_signup = false\nsite_url = "https://office.example.org"\n` +
        `additional_redirect_urls = ["https://a.example.org"]\n[auth.rate_limit]\nsign_in_sign_ups = 7\n` +
        `email_sent = 4\n[auth.email]\nmax_frequency = "5s"\notp_expiry = 600\nenable_confirmations = true\n` +
        `double_confirm_changes = false\nsecure_password_change = true\n` +
        `[storage]\nfile_size_limit = "5MB"\n[functions.open]\nverify_jwt = false\n`,
      `[database]\nstatement_timeout_anon = "500ms"\n[storage]\nquota_per_organization = "2GiB"\n` +
        `max_signed_url_expiry = "1h"\n[api]\nmax_embed_depth = 2\nmax_filtered_text = "2MiB"\ndb_tx_end = "rollback-allow-override"\n[oauth]\nallowed_hosts = ["id.example.org"]\n` +
        `[workers]\ncpu_threads = 3\n[text_extraction]\ntimeout = "30s"\nmax_ocr_pages = 0\n`,
    );
    expect(config.api).toEqual({
      maxRows: 50,
      maxEmbedDepth: 2,
      maxSelectItems: 200,
      maxEmbeddedBytes: 8 * 1024 ** 2,
      maxFilteredTextBytes: 2 * 1024 ** 2,
      txEnd: 'rollback-allow-override',
    });
    expect(config.auth.enableSignup).toBe(false);
    expect(config.auth.siteUrl).toBe('https://office.example.org');
    expect(config.auth.additionalRedirectUrls).toEqual(['https://a.example.org']);
    expect(config.auth.signInSignUpsPerAddress).toBe(7);
    expect(config.mail.limits.perInstallationPerHour).toBe(4);
    expect(config.auth.emailMaxFrequencyMs).toBe(5000);
    expect(config.auth.emailOtpExpirySeconds).toBe(600);
    expect(config.auth.enableConfirmations).toBe(true);
    expect(config.auth.doubleConfirmChanges).toBe(false);
    expect(config.auth.securePasswordChange).toBe(true);
    expect(config.storage).toEqual({
      fileSizeLimit: 5_000_000,
      quotaPerOrganization: 2 * 1024 ** 3,
      maxSignedUrlExpirySeconds: 3600,
      objects: { backend: 'disk' },
    });
    expect(config.database.statementTimeoutMs.anon).toBe(500);
    expect(config.functions.verifyJwt('open')).toBe(false);
    expect(config.functions.verifyJwt('other')).toBe(true);
    expect(config.oauth.allowedHosts).toEqual(['id.example.org']);
    expect(config.workers.cpuThreads).toBe(3);
    const small = await configFrom(
      '',
      '[workers]\nbackground_processes = 2\nbackground_memory_limit = "512MiB"\n',
    );
    expect(small.workers.backgroundProcesses).toBe(2);
    expect(small.workers.backgroundMemoryLimit).toBe(512 * 1024 ** 2);
    // Less than a process needs to start is a mistake, not a limit.
    await expect(configFrom('', '[workers]\nbackground_memory_limit = "20MiB"\n')).rejects.toThrow(
      /background_memory_limit must be at least 134217728 bytes/,
    );
    expect(config.reminders.checkIntervalMs).toBe(15 * 60_000);
    const quick = await configFrom('', '[reminders]\ncheck_interval = "5s"\n');
    expect(quick.reminders.checkIntervalMs).toBe(5000);
    await expect(configFrom('', '[reminders]\ncheck_interval = "2h"\n')).rejects.toThrow(
      /check_interval must be between "1s" and "1h"/,
    );
    expect(config.trash.retentionMs).toBe(30 * 86_400_000);
    expect((await configFrom('', '[trash]\nretention = "7d"\n')).trash.retentionMs).toBe(
      7 * 86_400_000,
    );
    await expect(configFrom('', '[trash]\nretention = "5s"\n')).rejects.toThrow(
      /\[trash\] retention must be at least "1m"/,
    );
    expect(config.transfer).toEqual({
      exportRetentionMs: 7 * 86_400_000,
      importMaxEntries: 100_000,
      importMaxUnpackedBytes: 20 * 1024 ** 3,
      importMaxRatio: 200,
      importMaxManifestBytes: 64 * 1024 ** 2,
      importMaxDocuments: 5_000,
    });
    const transfer = await configFrom(
      '',
      '[transfer]\nexport_retention = "2d"\nimport_max_entries = 10\nimport_max_unpacked_size = "1MiB"\nimport_max_ratio = 50\nimport_max_manifest_size = "1MiB"\nimport_max_documents = 5\n',
    );
    expect(transfer.transfer).toEqual({
      exportRetentionMs: 2 * 86_400_000,
      importMaxEntries: 10,
      importMaxUnpackedBytes: 1024 ** 2,
      importMaxRatio: 50,
      importMaxManifestBytes: 1024 ** 2,
      importMaxDocuments: 5,
    });
    await expect(configFrom('', '[transfer]\nexport_retention = "5s"\n')).rejects.toThrow(
      /\[transfer\] export_retention must be at least "1m"/,
    );
    expect(config.textExtraction).toMatchObject({
      timeoutMs: 30_000,
      maxOcrPages: 0,
      maxPages: 200,
    });
    const mail = await configFrom(
      '',
      '[mail]\nper_organization_per_hour = 40\nnew_organization_per_hour = 5\n' +
        'new_organization_period = "2d"\ninvitation_resend_interval = "10m"\n',
      { MAIL_PER_ORGANIZATION_PER_HOUR: '60' },
    );
    expect(mail.mail.limits).toEqual({
      perInstallationPerHour: 500,
      perOrganizationPerHour: 60,
      newOrganizationPerHour: 5,
      newOrganizationPeriodMs: 2 * 86_400_000,
      invitationResendIntervalMs: 600_000,
    });
    await expect(configFrom('', '[mail]\nper_organization_per_hour = 0\n')).rejects.toThrow(
      /\[mail\] per_organization_per_hour must be an integer of at least 1/,
    );
  });

  it('serves HTTP and runs the background work in one process unless [server] role says otherwise', async () => {
    expect((await configFrom('', '')).role).toBe('all');
    expect((await configFrom('', '[server]\nrole = "worker"\n')).role).toBe('worker');
    expect(
      (await configFrom('', '[server]\nrole = "worker"\n', { STEWARD_ROLE: 'api' })).role,
    ).toBe('api');
  });

  it('trusts no proxy unless [server] trusted_proxies names some, and stops on a typo', async () => {
    expect((await configFrom('', '')).trustedProxies).toEqual([]);
    expect(readConfig({}).trustedProxies).toEqual([]);
    expect(
      (await configFrom('', '[server]\ntrusted_proxies = ["127.0.0.1/32", "10.0.0.0/8"]\n'))
        .trustedProxies,
    ).toEqual(['127.0.0.1/32', '10.0.0.0/8']);
    expect(
      (
        await configFrom('', '[server]\ntrusted_proxies = ["10.0.0.0/8"]\n', {
          STEWARD_TRUSTED_PROXIES: '192.0.2.7, loopback',
        })
      ).trustedProxies,
    ).toEqual(['192.0.2.7', 'loopback']);
    await expect(
      configFrom('', '', { STEWARD_TRUSTED_PROXIES: '10.0.0.0/8, 10.0.0.300' }),
    ).rejects.toThrow(
      'STEWARD_TRUSTED_PROXIES must list IP addresses or CIDR ranges such as "10.0.0.0/8", got "10.0.0.300"',
    );
    await expect(configFrom('', '[server]\ntrusted_proxies = ["10.0.0.0/33"]\n')).rejects.toThrow(
      /steward\.toml \[server\] trusted_proxies must list IP addresses/,
    );
    await expect(configFrom('', '[server]\ntrusted_proxies = "10.0.0.1"\n')).rejects.toThrow(
      /trusted_proxies must be a list of strings/,
    );
  });

  it('lets a variable override a file', async () => {
    const config = await configFrom('[auth]\nenable_signup = true\n', '', {
      AUTH_ENABLE_SIGNUP: 'false',
      STATEMENT_TIMEOUT_AUTHENTICATED: '2s',
      DB_PREPARED_STATEMENTS: 'false',
      OAUTH_ALLOWED_HOSTS: 'a.example.org, b.example.org',
    });
    expect(config.auth.enableSignup).toBe(false);
    expect(config.database.statementTimeoutMs.authenticated).toBe(2000);
    expect(config.database.preparedStatements).toBe(false);
    expect(config.oauth.allowedHosts).toEqual(['a.example.org', 'b.example.org']);
  });

  it('reads SMTP from config.toml [auth.email.smtp] (with env() references) or SMTP_URL', async () => {
    expect(readConfig({}).mail.smtp).toBeNull();
    const smtp =
      `[auth.email.smtp]\nenabled = true\nhost = "smtp.example.org"\nport = 465\nuser = "office"\n` +
      `pass = "env(TEST_SMTP_PASSWORD)"\nadmin_email = "office@example.org"\nsender_name = "Grace Office"\n`;
    const config = await configFrom(smtp, '', { TEST_SMTP_PASSWORD: 's3cret' });
    expect(config.mail).toMatchObject({
      smtp: { host: 'smtp.example.org', port: 465, user: 'office', pass: 's3cret' },
      sender: { address: 'office@example.org', name: 'Grace Office' },
    });
    expect(
      (await configFrom(smtp.replace('enabled = true', 'enabled = false'), '')).mail.smtp,
    ).toBeNull();
    const fromUrl = await configFrom(smtp, '', {
      TEST_SMTP_PASSWORD: 'x',
      SMTP_URL: 'smtps://u:p@mail.example.net:465',
      SMTP_ADMIN_EMAIL: 'steward@example.net',
    });
    expect(fromUrl.mail).toMatchObject({
      smtp: { url: 'smtps://u:p@mail.example.net:465' },
      sender: { address: 'steward@example.net', name: 'Grace Office' },
    });
    await expect(
      configFrom(smtp.replace(/admin_email = .*\n/, ''), '', { TEST_SMTP_PASSWORD: 'x' }),
    ).rejects.toThrow(/admin_email \(or SMTP_ADMIN_EMAIL\) is required/);
    await expect(configFrom(smtp, '')).rejects.toThrow(
      /names TEST_SMTP_PASSWORD, which is not set/,
    );
    await expect(configFrom('', '', { SMTP_URL: 'http://mail.example.net' })).rejects.toThrow(
      /SMTP_URL must start with smtp:\/\/ or smtps:\/\//,
    );
  });

  it('closes sign-up when [auth.email] enable_signup is off, as GoTrue does', async () => {
    const config = await configFrom('[auth.email]\nenable_signup = false\n', '');
    expect(config.auth.enableSignup).toBe(false);
  });

  it('stops on a file that does not parse, naming the file and line', async () => {
    await expect(configFrom('[api]\nmax_rows = = 3\n', '')).rejects.toThrow(/config\.toml:2:/);
  });

  it('keeps stored files on disk by default, or in the S3 bucket [object_storage] names', async () => {
    expect((await configFrom('', '')).storage.objects).toEqual({ backend: 'disk' });
    const fromFile = await configFrom(
      '',
      `[object_storage]
backend = "s3"
bucket = "church-files"
region = "eu-west-2"
endpoint = "https://s3.example.org"
prefix = "steward/"
force_path_style = true
`,
    );
    // No keys in the file: the AWS SDK's own chain finds them.
    expect(fromFile.storage.objects).toEqual({
      backend: 's3',
      bucket: 'church-files',
      region: 'eu-west-2',
      endpoint: 'https://s3.example.org',
      prefix: 'steward/',
      forcePathStyle: true,
      credentials: undefined,
    });
    const fromEnv = await configFrom('', '', {
      OBJECT_STORAGE_BACKEND: 's3',
      OBJECT_STORAGE_BUCKET: 'other-files',
      OBJECT_STORAGE_ACCESS_KEY_ID: 'key-id',
      OBJECT_STORAGE_SECRET_ACCESS_KEY: 'secret',
    });
    expect(fromEnv.storage.objects).toEqual({
      backend: 's3',
      bucket: 'other-files',
      region: 'us-east-1',
      endpoint: undefined,
      prefix: '',
      forcePathStyle: false,
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'secret' },
    });
    await expect(configFrom('', '[object_storage]\nbackend = "s3"\n')).rejects.toThrow(
      /\[object_storage\] bucket \(OBJECT_STORAGE_BUCKET\) must be set when backend is "s3"/,
    );
    await expect(configFrom('', '', { STEWARD_ROLE: 'web' })).rejects.toThrow(
      /STEWARD_ROLE must be one of "all", "api", "worker", got "web"/,
    );
    await expect(configFrom('', '', { OBJECT_STORAGE_BACKEND: 'azure' })).rejects.toThrow(
      /OBJECT_STORAGE_BACKEND must be one of "disk", "s3", got "azure"/,
    );
    await expect(
      configFrom('', '', {
        OBJECT_STORAGE_BACKEND: 's3',
        OBJECT_STORAGE_BUCKET: 'b',
        OBJECT_STORAGE_PREFIX: '../up',
      }),
    ).rejects.toThrow(/OBJECT_STORAGE_PREFIX\) must be folder names ending with "\/"/);
    await expect(
      configFrom('', '', {
        OBJECT_STORAGE_BACKEND: 's3',
        OBJECT_STORAGE_BUCKET: 'b',
        OBJECT_STORAGE_ACCESS_KEY_ID: 'key-id',
      }),
    ).rejects.toThrow(/must be set together/);
  });

  it('stops on a value of the wrong shape, naming the setting', async () => {
    await expect(configFrom('[api]\nmax_rows = "many"\n', '')).rejects.toThrow(
      /config\.toml \[api\] max_rows must be an integer/,
    );
    await expect(configFrom('', '[database]\nstatement_timeout_anon = 3\n')).rejects.toThrow(
      /statement_timeout_anon must be a duration/,
    );
    await expect(configFrom('', '[storage]\nquota_per_organization = "lots"\n')).rejects.toThrow(
      /quota_per_organization must be a size/,
    );
    await expect(configFrom('', '[storage]\nmax_signed_url_expiry = "10m"\n')).rejects.toThrow(
      /max_signed_url_expiry must be at least "1h"/,
    );
    await expect(configFrom('', '', { STORAGE_MAX_SIGNED_URL_EXPIRY: '59m' })).rejects.toThrow(
      /STORAGE_MAX_SIGNED_URL_EXPIRY must be at least "1h"/,
    );
    await expect(configFrom('', '[api]\ndb_tx_end = "abort"\n')).rejects.toThrow(
      /steward\.toml \[api\] db_tx_end must be one of "commit", "commit-allow-override", "rollback", "rollback-allow-override", got "abort"/,
    );
    await expect(configFrom('', '', { API_DB_TX_END: 'never' })).rejects.toThrow(
      /API_DB_TX_END must be one of/,
    );
    await expect(configFrom('', '[text_extraction]\nmax_characters = 10\n')).rejects.toThrow(
      /\[text_extraction\] max_characters must be/,
    );
    await expect(configFrom('', '', { AUTH_ENABLE_SIGNUP: 'maybe' })).rejects.toThrow(
      /AUTH_ENABLE_SIGNUP must be true or false/,
    );
  });
});
