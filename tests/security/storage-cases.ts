/**
 * Every bucket (documents, branding, and the exports and imports of issue 15) × upload / resumable upload (TUS) / download / list / update / remove / sign /
 * signed upload × every actor × both
 * organisations' folders. Reaching into the other organisation's folder is exactly "guessing
 * its paths": the cases name real objects there.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as tus from 'tus-js-client';
import type { TestServer } from '../support/server.ts';
import { standing, type OrgKey, type OrgWorld, type World } from './actors.ts';
import { admits, allowedIf, judgeWrite, type Case, type Outcome, type Rule } from './cases.ts';

type StorageOperation =
  | 'upload'
  | 'resumable-upload'
  | 'download'
  | 'list'
  | 'update'
  | 'remove'
  | 'sign'
  | 'signed-upload';

interface BucketSpec {
  bucket: 'documents' | 'branding' | 'exports' | 'imports';
  rules: Record<StorageOperation, Rule>;
  contentType: string;
  /** The folder of an organisation (what `list` is given). */
  folder(org: OrgWorld): string;
  /** A fresh object name for the case (the branding logo has only one). */
  objectName(org: OrgWorld): string;
  content(label: string): string;
}

const BUCKETS: BucketSpec[] = [
  {
    bucket: 'documents',
    rules: {
      upload: 'member',
      'resumable-upload': 'member',
      download: 'member',
      list: 'member',
      update: 'member',
      remove: 'member',
      sign: 'member',
      'signed-upload': 'member',
    },
    contentType: 'text/plain',
    folder: (org) => `documents/${org.organisation.id}`,
    objectName: (org) =>
      `documents/${org.organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.txt`,
    content: (label) => `document content ${label}`,
  },
  {
    bucket: 'branding',
    rules: {
      upload: 'admin',
      'resumable-upload': 'admin',
      download: 'member',
      list: 'member',
      update: 'admin',
      remove: 'admin',
      sign: 'member',
      'signed-upload': 'admin',
    },
    contentType: 'image/svg+xml',
    folder: (org) => org.organisation.id,
    objectName: (org) => `${org.organisation.id}/logo.svg`,
    content: (label) => `<svg xmlns="http://www.w3.org/2000/svg"><title>${label}</title></svg>`,
  },
  {
    // Organisation exports: written by the server's job only, read by the organisation's admins.
    bucket: 'exports',
    rules: {
      upload: 'nobody',
      'resumable-upload': 'nobody',
      download: 'admin',
      list: 'admin',
      update: 'nobody',
      remove: 'nobody',
      sign: 'admin',
      'signed-upload': 'nobody',
    },
    contentType: 'application/zip',
    folder: (org) => org.organisation.id,
    objectName: (org) => `${org.organisation.id}/${randomUUID()}.zip`,
    content: (label) => `export ${label}`,
  },
  {
    // ZIPs to import: admins upload them into their organisation's folder; the job removes them.
    bucket: 'imports',
    rules: {
      upload: 'admin',
      'resumable-upload': 'admin',
      download: 'admin',
      list: 'admin',
      update: 'nobody',
      remove: 'nobody',
      sign: 'admin',
      'signed-upload': 'admin',
    },
    contentType: 'application/zip',
    folder: (org) => org.organisation.id,
    objectName: (org) =>
      `${org.organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.zip`,
    content: (label) => `import ${label}`,
  },
];

async function stored(server: TestServer, bucket: string, name: string): Promise<string | null> {
  const { data, error } = await server.service().storage.from(bucket).download(name);
  return error || !data ? null : data.text();
}

async function put(server: TestServer, spec: BucketSpec, name: string, content: string) {
  const { error } = await server
    .service()
    .storage.from(spec.bucket)
    .upload(name, content, { contentType: spec.contentType, upsert: true });
  if (error) throw new Error(`storage fixture ${spec.bucket}/${name}: ${error.message}`);
}

/** Uploads through Storage's TUS endpoint with tus-js-client, as the actor; the error, or null. */
async function uploadResumably(
  server: TestServer,
  client: SupabaseClient,
  spec: BucketSpec,
  name: string,
  content: string,
): Promise<{ message: string } | null> {
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token ?? server.keys.anonKey;
  return new Promise((resolve) => {
    new tus.Upload(Buffer.from(content), {
      endpoint: `${server.url}/storage/v1/upload/resumable`,
      headers: { apikey: server.keys.anonKey, authorization: `Bearer ${token}` },
      retryDelays: [],
      metadata: { bucketName: spec.bucket, objectName: name, contentType: spec.contentType },
      onSuccess: () => resolve(null),
      onError: (error) => resolve({ message: error.message }),
    }).start();
  });
}

async function attempt(
  server: TestServer,
  spec: BucketSpec,
  operation: StorageOperation,
  client: SupabaseClient,
  org: OrgWorld,
): Promise<Outcome> {
  const storage = client.storage.from(spec.bucket);
  const name = spec.objectName(org);
  const original = spec.content('fixture');
  const fileName = name.split('/').pop()!;

  if (operation === 'upload') {
    // The logo path may be taken by the fixture: clear it first, as a fresh organisation would be.
    await server.service().storage.from(spec.bucket).remove([name]);
    const content = spec.content('uploaded');
    const { error } = await storage.upload(name, content, { contentType: spec.contentType });
    return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
  }

  if (operation === 'resumable-upload') {
    await server.service().storage.from(spec.bucket).remove([name]);
    const content = spec.content('resumed');
    const error = await uploadResumably(server, client, spec, name, content);
    return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
  }

  if (operation === 'signed-upload') {
    // The actor makes the link; whoever holds it uploads, as the actor.
    await server.service().storage.from(spec.bucket).remove([name]);
    const content = spec.content('through a link');
    const link = await storage.createSignedUploadUrl(name);
    const { error } = link.data
      ? await server
          .anon()
          .storage.from(spec.bucket)
          .uploadToSignedUrl(name, link.data.token, content, { contentType: spec.contentType })
      : link;
    return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
  }

  await put(server, spec, name, original);
  switch (operation) {
    case 'download': {
      const { data, error } = await storage.download(name);
      return allowedIf(!error && (await data!.text()) === original);
    }
    case 'list': {
      const { data, error } = await storage.list(spec.folder(org));
      return allowedIf(!error && (data ?? []).some((entry) => entry.name === fileName));
    }
    case 'update': {
      const content = spec.content('replaced');
      const { error } = await storage.update(name, content, { contentType: spec.contentType });
      return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
    }
    case 'remove': {
      const { error } = await storage.remove([name]);
      return judgeWrite(error, (await stored(server, spec.bucket, name)) === null);
    }
    case 'sign': {
      const { data, error } = await storage.createSignedUrl(name, 60);
      if (error || !data?.signedUrl) return 'denied';
      const response = await fetch(data.signedUrl);
      return allowedIf(response.ok && (await response.text()) === original);
    }
  }
}

export function storageCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  for (const spec of BUCKETS) {
    for (const target of ['A', 'B'] as OrgKey[]) {
      const org = world.orgs[target];
      for (const operation of [
        'upload',
        'resumable-upload',
        'download',
        'list',
        'update',
        'remove',
        'sign',
        'signed-upload',
      ] as const) {
        for (const actor of world.actors) {
          cases.push({
            group: `storage ${spec.bucket}`,
            name: `${actor.label} ${operation}s in ${spec.bucket} of ${target}`,
            expected: allowedIf(admits(spec.rules[operation], standing(actor, target))),
            run: () => attempt(server, spec, operation, actor.client, org),
          });
        }
      }
    }
  }
  return cases;
}
