import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Issue 24, item 1: the logo as PNG, JPEG or WebP. An admin uploads the image as
// `branding/{organization_id}/logo-source` and asks for it to be converted; a background
// process resizes it with sharp into `logo.png` (metadata dropped), which replaces an SVG logo.
// A decompression bomb is refused from its header, with a reason the admin can read.

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';

async function conversion(person: Person): Promise<{ status: string; error: string | null }> {
  for (let waited = 0; waited < 60_000; waited += 250) {
    const { data, error } = await person.client.rpc('logo_conversion');
    expect(error).toBeNull();
    const state = data as { status: string; error: string | null } | null;
    if (state && state.status !== 'working') return state;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the logo was not converted in time');
}

async function uploadSource(
  person: Person,
  organisation: Organisation,
  bytes: Buffer,
  type: string,
) {
  return person.client.storage
    .from('branding')
    .upload(`${organisation.id}/logo-source`, bytes, { contentType: type, upsert: true });
}

async function names(server: TestServer, organisation: Organisation): Promise<string[]> {
  const { rows } = await server.db
    .serverWork()
    .query<{ name: string }>(
      `select name from storage.objects where bucket_id = 'branding' and name like $1 order by name`,
      [`${organisation.id}/%`],
    );
  return rows.map((row) => row.name.slice(organisation.id.length + 1));
}

describe('the logo as a PNG, JPEG or WebP image', () => {
  let server: TestServer;
  let church: Organisation;

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Logo Church');
  }, 120_000);
  afterAll(() => server?.close());

  it('resizes the image into logo.png without its metadata, replacing the SVG logo', async () => {
    const svg = await church.master.client.storage
      .from('branding')
      .upload(`${church.id}/logo.svg`, Buffer.from(SVG), { contentType: 'image/svg+xml' });
    expect(svg.error).toBeNull();
    const photo = await sharp({
      create: { width: 2000, height: 1000, channels: 3, background: '#3366cc' },
    })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'Camera of the church office', Artist: 'Jane Doe' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    expect((await uploadSource(church.master, church, photo, 'image/jpeg')).error).toBeNull();
    expect((await church.master.client.rpc('convert_logo')).error).toBeNull();
    expect(await conversion(church.master)).toEqual({ status: 'done', error: null });

    expect(await names(server, church)).toEqual(['logo.png']);
    const { data, error } = await church.master.client.storage
      .from('branding')
      .download(`${church.id}/logo.png`);
    expect(error).toBeNull();
    const logo = await sharp(Buffer.from(await data!.arrayBuffer())).metadata();
    expect(logo).toMatchObject({ format: 'png', width: 512, height: 256 });
    expect(logo.exif).toBeUndefined();
    // The history says the logo changed, by the admin, once for each upload: the SVG's
    // replacement is not a removal.
    const { rows: history } = await server.db
      .serverWork()
      .query<{ kind: string; actor_id: string | null }>(
        `select kind, actor_id from public.activity_log
       where organization_id = $1 and kind like 'settings.logo%' order by id`,
        [church.id],
      );
    expect(history).toEqual([
      { kind: 'settings.logo_changed', actor_id: church.master.userId },
      { kind: 'settings.logo_changed', actor_id: church.master.userId },
    ]);
    // Every member sees it.
    const member = await addMember(server, church, 'user', 'logo-viewer');
    const seen = await member.client.storage.from('branding').download(`${church.id}/logo.png`);
    expect(seen.error).toBeNull();
  });

  it('logs the removal of the logo, and nothing for the files of documents', async () => {
    const chapel = await createOrganisation(server, 'Removal Chapel');
    const branding = chapel.master.client.storage.from('branding');
    const logo = `${chapel.id}/logo.svg`;
    expect(
      (await branding.upload(logo, Buffer.from(SVG), { contentType: 'image/svg+xml' })).error,
    ).toBeNull();
    const removed = await branding.remove([logo]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((object) => object.name)).toEqual([logo]);
    // A file of the documents bucket, written and removed, is not the logo.
    const documents = chapel.master.client.storage.from('documents');
    const file = `documents/${chapel.id}/notes.txt`;
    expect(
      (await documents.upload(file, Buffer.from('notes'), { contentType: 'text/plain' })).error,
    ).toBeNull();
    expect((await documents.remove([file])).data?.map((object) => object.name)).toEqual([file]);
    const { rows: history } = await server.db
      .serverWork()
      .query<{ kind: string; actor_id: string | null }>(
        `select kind, actor_id from public.activity_log
       where organization_id = $1 and kind like 'settings.logo%' order by id`,
        [chapel.id],
      );
    expect(history).toEqual([
      { kind: 'settings.logo_changed', actor_id: chapel.master.userId },
      { kind: 'settings.logo_removed', actor_id: chapel.master.userId },
    ]);
  });

  it('refuses a decompression bomb from its header, and the server goes on', async () => {
    const parish = await createOrganisation(server, 'Bomb Parish');
    // 30 million pixels of one colour: a small file that decodes to far more than it weighs.
    const bomb = await sharp({
      create: { width: 6000, height: 5000, channels: 3, background: '#ffffff' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    expect((await uploadSource(parish.master, parish, bomb, 'image/png')).error).toBeNull();
    expect((await parish.master.client.rpc('convert_logo')).error).toBeNull();
    expect(await conversion(parish.master)).toEqual({
      status: 'failed',
      error: 'The image is too large: a logo may have at most 25 million pixels',
    });
    expect(await names(server, parish)).toEqual([]);

    // A file that is not an image at all.
    expect(
      (await uploadSource(parish.master, parish, Buffer.from('not an image'), 'image/png')).error,
    ).toBeNull();
    expect((await parish.master.client.rpc('convert_logo')).error).toBeNull();
    expect(await conversion(parish.master)).toEqual({
      status: 'failed',
      error: 'The file is not a PNG, JPEG or WebP image',
    });

    // Still serving, and converting the next image.
    const small = await sharp({
      create: { width: 300, height: 100, channels: 4, background: '#00000000' },
    })
      .webp()
      .toBuffer();
    expect((await uploadSource(parish.master, parish, small, 'image/webp')).error).toBeNull();
    expect((await parish.master.client.rpc('convert_logo')).error).toBeNull();
    expect(await conversion(parish.master)).toEqual({ status: 'done', error: null });
    expect(await names(server, parish)).toEqual(['logo.png']);
  });

  it('lets only admins upload an image, convert it, or write logo.png themselves', async () => {
    const member = await addMember(server, church, 'user', 'logo-user');
    const png = await sharp({
      create: { width: 10, height: 10, channels: 3, background: '#000000' },
    })
      .png()
      .toBuffer();
    expect((await uploadSource(member, church, png, 'image/png')).error).not.toBeNull();
    expect((await member.client.rpc('convert_logo')).error?.message).toBe(
      'Only admins can change the logo',
    );
    expect((await member.client.rpc('logo_conversion')).error?.message).toBe(
      'Only admins can change the logo',
    );
    const direct = await church.master.client.storage
      .from('branding')
      .upload(`${church.id}/logo.png`, png, { contentType: 'image/png', upsert: true });
    expect(direct.error).not.toBeNull();
    const other = await createOrganisation(server, 'Other Logo Church');
    expect(
      (
        await other.master.client.storage
          .from('branding')
          .upload(`${church.id}/logo-source`, png, { contentType: 'image/png' })
      ).error,
    ).not.toBeNull();
  });
});
