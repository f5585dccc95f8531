import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig, type ServerConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { s3Client } from '../../server/storage/s3-file-store.ts';
import { addMember, createOrganisation, unwrap, type Organisation } from '../security/world.ts';
import { objectStorageEnv, startLocalS3Server, type LocalS3Server } from '../support/s3.ts';
import { textPdf } from '../support/sample-files.ts';
import { scratchDir } from '../support/scratch.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { HOSTED_MIGRATION_ROLE, postgresAdminUrl } from '../support/template.ts';
import { unzip } from '../support/zip-files.ts';

// The worker of a hosted Supabase project (STEWARD_ROLE=worker, STEWARD_TARGET=hosted): it
// connects to the project's database as `postgres`, which is no superuser there, and reads and
// removes files through Storage's S3 protocol, where an object is bucket = the Storage bucket
// id, key = the object's name. Here the project is a database migrated as `hosted_postgres`
// (docs/hosted-parity.md), an API process stands in for its PostgREST and GoTrue, and s3rver
// holds the buckets as Storage's S3 endpoint shows them. The worker is configured as a hosting
// user configures it, by its environment.

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A role that logs in with what `postgres` has on hosted: no superuser, BYPASSRLS, owner's rights. */
async function hostedLoginRole(adminUrl: string, databaseUrl: string): Promise<string> {
  const name = `steward_hosted_worker_${randomBytes(6).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `create role ${name} login password '${password}' nosuperuser bypassrls in role ${HOSTED_MIGRATION_ROLE}`,
    );
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`drop role if exists ${name}`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(databaseUrl);
  url.username = name;
  url.password = password;
  return url.toString();
}

describe('STEWARD_TARGET=hosted', () => {
  it("refuses what a hosted project's worker cannot be: its API, or on other files", async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const hosted = (changes: Partial<ServerConfig>) =>
      startServer({
        config: { ...server.config, target: 'hosted', role: 'worker', port: 0, ...changes },
        db: server.db,
        skipMigrations: true,
      });
    await expect(hosted({ role: 'all' })).rejects.toThrow(
      'STEWARD_TARGET=hosted runs the background work of a hosted Supabase project, whose own services answer the app: set STEWARD_ROLE=worker.',
    );
    await expect(hosted({})).rejects.toThrow(
      /^STEWARD_TARGET=hosted works on the project's database and Storage: set DATABASE_URL/,
    );
    // The server it was tried on still answers.
    unwrap(await server.service().storage.listBuckets(), 'list buckets');
  });
});

if (postgresAdminUrl()) {
  describe('the worker of a hosted Supabase project', () => {
    let s3: LocalS3Server;
    let smtp: TestSmtpServer;
    let project: TestServer;
    let worker: RunningServer;
    let church: Organisation;
    let database: pg.Client;
    let documentId: string;
    let filePath: string;
    let pdf: Uint8Array;

    const storage = () =>
      s3Client({
        bucket: '',
        region: 'us-east-1',
        endpoint: s3.endpoint,
        prefix: '',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
    const objectExists = (bucket: string, key: string) =>
      storage()
        .send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
        .then(
          () => true,
          (error: { $metadata?: { httpStatusCode?: number } }) => {
            if (error.$metadata?.httpStatusCode === 404) return false;
            throw error;
          },
        );

    /** Stores `bytes` as hosted Storage stores an upload: under its name, its row with Storage's version. */
    const storeAsHosted = async (
      bucket: string,
      name: string,
      bytes: Uint8Array,
      contentType: string,
      owner: string,
    ) => {
      await storage().send(
        new PutObjectCommand({ Bucket: bucket, Key: name, Body: bytes, ContentType: contentType }),
      );
      const eTag = `"${createHash('md5').update(bytes).digest('hex')}"`;
      await database.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
         values ($1, $2, $3::uuid, $3::text, $4, $5::jsonb)`,
        [
          bucket,
          name,
          owner,
          randomUUID(),
          JSON.stringify({
            eTag,
            size: bytes.byteLength,
            mimetype: contentType,
            cacheControl: 'max-age=3600',
            lastModified: new Date().toISOString(),
            contentLength: bytes.byteLength,
            httpStatusCode: 200,
          }),
        ],
      );
    };

    it('starts against the project as its non-superuser, with its Storage', async () => {
      s3 = await startLocalS3Server();
      cleanups.push(() => s3.close());
      smtp = await startSmtpServer();
      cleanups.push(() => smtp.close());
      for (const bucket of ['documents', 'exports', 'imports', 'branding']) {
        await storage().send(new CreateBucketCommand({ Bucket: bucket }));
      }
      // The project's API: it runs no background work (its files are elsewhere).
      project = await startTestServer({
        env: { ...objectStorageEnv(await s3.freshBucket()), STEWARD_ROLE: 'api' },
      });
      cleanups.push(() => project.close());
      database = new pg.Client({ connectionString: project.databaseUrl! });
      await database.connect();
      cleanups.push(() => database.end());
      church = await createOrganisation(project, 'Hosted Church');

      // A PDF uploaded as hosted Storage keeps it: its bytes under its name in the bucket,
      // its row in storage.objects with Storage's own version.
      pdf = await textPdf(['The organ restoration fund reached its goal in September']);
      filePath = `documents/${church.id}/${Date.now()}-organ.pdf`;
      await storeAsHosted('documents', filePath, pdf, 'application/pdf', church.master.userId);
      documentId = (
        unwrap(
          await church.master.client
            .from('documents')
            .insert({
              organization_id: church.id,
              name: 'Organ fund.pdf',
              category: 'Financial',
              file_path: filePath,
              size: pdf.byteLength,
              status: 'Active',
              tags: [],
            })
            .select('id')
            .single(),
          'insert the document',
        ) as { id: string }
      ).id;

      const dataDir = await scratchDir('steward-hosted-worker-');
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const env = {
        STEWARD_ROLE: 'worker',
        STEWARD_TARGET: 'hosted',
        DATABASE_URL: await hostedLoginRole(postgresAdminUrl()!, project.databaseUrl!),
        OBJECT_STORAGE_BACKEND: 's3',
        OBJECT_STORAGE_ENDPOINT: s3.endpoint,
        OBJECT_STORAGE_FORCE_PATH_STYLE: 'true',
        OBJECT_STORAGE_ACCESS_KEY_ID: 'S3RVER',
        OBJECT_STORAGE_SECRET_ACCESS_KEY: 'S3RVER',
        AUTH_SITE_URL: project.url,
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: 'steward@hosted.example',
        JOB_POLL_INTERVAL: '100ms',
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
      };
      // `supabase db push` records migrations as `postgres`, which owns their history hosted;
      // here the test template's history was made by the superuser.
      await database.query(`grant usage on schema supabase_migrations to ${HOSTED_MIGRATION_ROLE};
        grant select on supabase_migrations.schema_migrations to ${HOSTED_MIGRATION_ROLE}`);
      const superuser = await database.query<{ rolsuper: boolean }>(
        `select r.rolsuper from pg_roles r where r.rolname = $1`,
        [new URL(env.DATABASE_URL).username],
      );
      expect(superuser.rows).toEqual([{ rolsuper: false }]);

      // The worker does not migrate: a project without the newest migration is refused.
      const newest = await database.query<{ version: string; name: string; statements: string[] }>(
        `delete from supabase_migrations.schema_migrations
          where version = (select max(version) from supabase_migrations.schema_migrations)
          returning version, name, statements`,
      );
      const { version } = newest.rows[0]!;
      await expect(startServer({ config: readConfig(env) })).rejects.toThrow(
        `The hosted project lacks migration ${version} of supabase/migrations (1 missing): apply them with \`supabase db push\` before starting the worker.`,
      );
      await database.query(
        `insert into supabase_migrations.schema_migrations (version, name, statements)
         values ($1, $2, $3)`,
        [version, newest.rows[0]!.name, newest.rows[0]!.statements],
      );
      worker = await startServer({ config: { ...readConfig(env), logRequests: false } });
      cleanups.push(() => worker.close());
    }, 120_000);

    it('reads the text of a PDF in Storage, and search finds a word inside it', async () => {
      const search = async () =>
        unwrap(
          await church.master.client.rpc('search_documents', { search: 'restoration' }),
          'search',
        ) as { id: string }[];
      await expect
        .poll(search, { timeout: 60_000, interval: 200 })
        .toEqual([expect.objectContaining({ id: documentId })]);
    }, 90_000);

    it('writes an export into the exports bucket under its name, and removes the earlier one', async () => {
      const exportOnce = async () => {
        const started = unwrap(
          await church.master.client
            .rpc('start_organization_export', { include_versions: false })
            .single<{ id: string }>(),
          'start_organization_export',
        );
        const status = async () =>
          (
            unwrap(
              await church.master.client
                .from('organization_exports')
                .select('status')
                .eq('id', started.id)
                .single(),
              'export',
            ) as { status: string }
          ).status;
        await expect.poll(status, { timeout: 60_000, interval: 200 }).toBe('ready');
        return `${church.id}/${started.id}.zip`;
      };
      const first = await exportOnce();
      const zip = await storage().send(new GetObjectCommand({ Bucket: 'exports', Key: first }));
      const files = await unzip(Buffer.from(await zip.Body!.transformToByteArray()));
      expect([...files.keys()]).toEqual(expect.arrayContaining(['Financial/Organ fund.pdf']));

      // Only the latest export is kept: the earlier ZIP leaves the bucket through Storage.
      const second = await exportOnce();
      expect(await objectExists('exports', second)).toBe(true);
      await expect
        .poll(() => objectExists('exports', first), { timeout: 60_000, interval: 200 })
        .toBe(false);
    }, 120_000);

    it("imports an export into another organisation, its files in Storage's documents bucket", async () => {
      const { rows: exports } = await database.query<{ file_path: string }>(
        `select file_path from public.organization_exports
          where organization_id = $1 and status = 'ready'`,
        [church.id],
      );
      const zip = await storage().send(
        new GetObjectCommand({ Bucket: 'exports', Key: exports[0]!.file_path }),
      );
      const zipBytes = Buffer.from(await zip.Body!.transformToByteArray());
      const second = await createOrganisation(project, 'Second Hosted Church');
      const zipName = `${second.id}/${Date.now()}-import.zip`;
      await storeAsHosted('imports', zipName, zipBytes, 'application/zip', second.master.userId);
      const started = unwrap(
        await second.master.client
          .rpc('start_organization_import', { file_path: zipName })
          .single<{ id: string }>(),
        'start_organization_import',
      );
      const state = async () =>
        unwrap(
          await second.master.client
            .from('organization_imports')
            .select('status, error')
            .eq('id', started.id)
            .single(),
          'import',
        );
      await expect
        .poll(state, { timeout: 60_000, interval: 200 })
        .toEqual({ status: 'done', error: null });

      // The document's file is an object of the documents bucket under its name, in the
      // import's folder, with its row; the worker reads it as it reads any file of Storage.
      const imported = unwrap(
        await second.master.client.from('documents').select('id, name, file_path'),
        'documents',
      ) as { id: string; name: string; file_path: string }[];
      expect(imported).toEqual([
        expect.objectContaining({
          name: 'Organ fund.pdf',
          file_path: expect.stringMatching(
            new RegExp(`^documents/${second.id}/import-${started.id}-[0-9a-f-]{36}$`),
          ),
        }),
      ]);
      const filePath = imported[0]!.file_path;
      const object = await storage().send(
        new GetObjectCommand({ Bucket: 'documents', Key: filePath }),
      );
      expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(Buffer.from(pdf));
      const { rows } = await database.query(
        `select owner::text as owner, (metadata ->> 'size')::int as size
           from storage.objects where bucket_id = 'documents' and name = $1`,
        [filePath],
      );
      expect(rows).toEqual([{ owner: second.master.userId, size: object.ContentLength }]);
      unwrap(
        await second.master.client.storage.from('documents').createSignedUrl(filePath, 60),
        'sign the imported file',
      );
      await expect
        .poll(
          async () =>
            unwrap(
              await second.master.client.rpc('search_documents', { search: 'restoration' }),
              'search',
            ) as { id: string }[],
          { timeout: 60_000, interval: 200 },
        )
        .toEqual([expect.objectContaining({ id: imported[0]!.id })]);

      // The uploaded ZIP leaves through Storage, row and bytes.
      await expect
        .poll(() => objectExists('imports', zipName), { timeout: 60_000, interval: 200 })
        .toBe(false);
      const zipRows = await database.query(
        `select count(*)::int as objects from storage.objects where bucket_id = 'imports' and name = $1`,
        [zipName],
      );
      expect(zipRows.rows).toEqual([{ objects: 0 }]);
    }, 150_000);

    it('sends the reminder of a document expiring soon through the SMTP server, with links to the app', async () => {
      const chapel = await createOrganisation(project, 'Reminded Chapel');
      // Due at any hour of today: the digests of the day go out from midnight on.
      unwrap(
        await chapel.master.client
          .from('reminder_settings')
          .upsert({ organization_id: chapel.id, send_hour: 0, time_zone: 'UTC' }),
        'reminder settings',
      );
      const expiry = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
      const { id } = unwrap(
        await chapel.master.client
          .from('documents')
          .insert({
            organization_id: chapel.id,
            name: 'Fire certificate',
            category: 'Legal',
            file_path: `documents/${chapel.id}/${Date.now()}-fire.pdf`,
            expiry_date: expiry,
            status: 'Active',
            tags: [],
          })
          .select('id')
          .single(),
        'insert the document',
      ) as { id: string };
      await database.query(
        `update private.schedules set next_run_at = now() where name = 'reminders.daily'`,
      );
      const mailTo = () =>
        smtp.received.filter(({ envelope }) => envelope.to.includes(chapel.master.email));
      await expect.poll(() => mailTo().length, { timeout: 60_000, interval: 200 }).toBe(1);
      const { mail } = mailTo()[0]!;
      expect(mail.subject).toBe('Renewals at Reminded Chapel: 1 expiring soon');
      expect(mail.text).toContain(`${project.url}/documents?document=${id}`);
    }, 90_000);

    it('converts an uploaded image into the logo in Storage, and removes the SVG logo and the upload through it', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><title>Old</title></svg>');
      await storeAsHosted(
        'branding',
        `${church.id}/logo.svg`,
        svg,
        'image/svg+xml',
        church.master.userId,
      );
      const image = await sharp({
        create: { width: 1200, height: 600, channels: 3, background: '#336699' },
      })
        .png()
        .toBuffer();
      const source = `${church.id}/logo-source`;
      await storeAsHosted('branding', source, image, 'image/png', church.master.userId);
      unwrap(await church.master.client.rpc('convert_logo'), 'convert_logo');
      await expect
        .poll(
          async () =>
            unwrap(await church.master.client.rpc('logo_conversion'), 'logo_conversion') as {
              status: string;
            },
          { timeout: 60_000, interval: 200 },
        )
        .toEqual({ status: 'done', error: null });

      const logo = await storage().send(
        new GetObjectCommand({ Bucket: 'branding', Key: `${church.id}/logo.png` }),
      );
      const metadata = await sharp(Buffer.from(await logo.Body!.transformToByteArray())).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 512, 256]);
      expect(await objectExists('branding', `${church.id}/logo.svg`)).toBe(false);
      expect(await objectExists('branding', source)).toBe(false);
      const { rows } = await database.query(
        `select name from storage.objects where bucket_id = 'branding' and name like $1 order by name`,
        [`${church.id}/%`],
      );
      expect(rows).toEqual([{ name: `${church.id}/logo.png` }]);
    }, 90_000);

    it('purges a document past its time in the trash, and its file leaves the bucket', async () => {
      unwrap(
        await church.master.client.rpc('delete_documents', { document_ids: [documentId] }),
        'delete',
      );
      expect(await objectExists('documents', filePath)).toBe(true);
      // Thirty-one days later, when the hourly purge comes round.
      await database.query(
        `update public.documents set deleted_at = now() - interval '31 days' where id = $1`,
        [documentId],
      );
      await database.query(
        `update private.schedules set next_run_at = now() where name = 'trash.purge'`,
      );
      await expect
        .poll(() => objectExists('documents', filePath), { timeout: 60_000, interval: 200 })
        .toBe(false);
      // The job deletes a row Storage left (here: s3rver keeps none) just after the object.
      const left = async () =>
        (
          await database.query(
            `select (select count(*) from public.documents where id = $1)::int as documents,
                    (select count(*) from storage.objects
                      where bucket_id = 'documents' and name = $2)::int as objects`,
            [documentId, filePath],
          )
        ).rows[0];
      await expect
        .poll(left, { timeout: 10_000, interval: 100 })
        .toEqual({ documents: 0, objects: 0 });
    }, 90_000);

    it('keeps a purged file from its readers until Storage has removed it', async () => {
      // A file a member uploaded through the project's API, which that member reads.
      const member = await addMember(project, church, 'user');
      const name = `documents/${church.id}/${Date.now()}-minutes.txt`;
      const bytes = Buffer.from('Minutes of the vestry meeting, not for after the purge');
      unwrap(
        await member.client.storage
          .from('documents')
          .upload(name, bytes, { contentType: 'text/plain' }),
        'upload',
      );
      const { id } = unwrap(
        await member.client
          .from('documents')
          .insert({
            organization_id: church.id,
            name: 'Minutes.txt',
            category: 'Financial',
            file_path: name,
            size: bytes.byteLength,
            status: 'Active',
            tags: [],
          })
          .select('id')
          .single(),
        'insert the document',
      ) as { id: string };
      const download = await member.client.storage.from('documents').download(name);
      expect(Buffer.from(await download.data!.arrayBuffer())).toEqual(bytes);
      unwrap(await member.client.storage.from('documents').createSignedUrl(name, 60), 'sign');
      unwrap(await church.master.client.rpc('delete_documents', { document_ids: [id] }), 'delete');

      // Deleted for ever, with the worker's removal held back: its row is still there.
      await database.query('begin');
      await database.query('select private.purge_documents($1, $2)', [church.id, [id]]);
      const held = await database.query(
        `update private.jobs set run_after = now() + interval '1 hour'
          where kind = 'storage.remove-objects' and finished_at is null and payload -> 'names' ? $1`,
        [name],
      );
      await database.query('commit');
      expect(held.rowCount).toBe(1);
      const rows = await database.query(
        `select count(*)::int as objects from storage.objects where bucket_id = 'documents' and name = $1`,
        [name],
      );
      expect(rows.rows).toEqual([{ objects: 1 }]);
      const afterPurge = await member.client.storage.from('documents').download(name);
      expect(afterPurge.data).toBeNull();
      expect(afterPurge.error).not.toBeNull();
      const signed = await member.client.storage.from('documents').createSignedUrl(name, 60);
      expect(signed.data).toBeNull();
      expect(signed.error?.message).toBe('Object not found');

      // The worker removes it when its job comes, and the name is forgotten.
      await database.query(
        `update private.jobs set run_after = now()
          where kind = 'storage.remove-objects' and finished_at is null and payload -> 'names' ? $1`,
        [name],
      );
      const left = async () =>
        (
          await database.query(
            `select (select count(*) from storage.objects
                      where bucket_id = 'documents' and name = $1)::int as objects,
                    (select count(*) from private.document_files_leaving where name = $1)::int as leaving`,
            [name],
          )
        ).rows[0];
      await expect
        .poll(left, { timeout: 60_000, interval: 200 })
        .toEqual({ objects: 0, leaving: 0 });
    }, 90_000);

    it('asks again for the removal of a purged file whose removal job failed for good', async () => {
      // Purged over an hour ago; its removal failed through all its attempts (Storage down).
      const name = `documents/${church.id}/${Date.now()}-left-behind.txt`;
      const bytes = Buffer.from('Left behind by a removal that failed');
      await storeAsHosted('documents', name, bytes, 'text/plain', church.master.userId);
      await database.query(
        `insert into private.document_files_leaving (name, organization_id, since)
         values ($1, $2, now() - interval '2 hours')`,
        [name, church.id],
      );
      await database.query(
        `insert into private.jobs (kind, payload, organization_id, attempts, max_attempts,
                                   failed_at, last_error)
         values ('storage.remove-objects',
                 jsonb_build_object('bucket', 'documents', 'names', jsonb_build_array($1::text)),
                 $2, 5, 5, now(), 'Storage is unavailable')`,
        [name, church.id],
      );
      // The hourly sweep's time comes.
      await database.query(
        `insert into private.schedules (name, next_run_at) values ('storage.retry-leaving-files', now())
         on conflict (name) do update set next_run_at = now()`,
      );
      await worker.jobs.runDue();
      const left = async () =>
        (
          await database.query(
            `select (select count(*) from storage.objects
                      where bucket_id = 'documents' and name = $1)::int as objects,
                    (select count(*) from private.document_files_leaving where name = $1)::int as leaving`,
            [name],
          )
        ).rows[0];
      await expect
        .poll(left, { timeout: 60_000, interval: 200 })
        .toEqual({ objects: 0, leaving: 0 });
      expect(await objectExists('documents', name)).toBe(false);
    }, 90_000);
  });
}
