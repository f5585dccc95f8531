import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { addMember, createOrganization } from '../../../testing/backend.ts';
import { findNotice } from '../../../testing/notices.ts';
import { renderApp } from '../../../testing/render.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="28"><rect width="96" height="28" fill="#1d4ed8"/></svg>';

/** A 1 × 1 PNG. */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const svgFile = (content = SVG, name = 'logo.svg') =>
  new File([content], name, { type: 'image/svg+xml' });

const nav = () => screen.getByRole('navigation', { name: 'Main' });

function decoded(src: string): string {
  return Buffer.from(src.slice(src.indexOf(',') + 1), 'base64').toString('utf8');
}

async function openUploadDialog(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('navigation', { name: 'Main' });
  await user.click(await within(nav()).findByRole('button', { name: 'Upload custom logo' }));
  // The dialog is loaded when first opened.
  return screen.findByRole('dialog', { name: 'Upload Custom Logo' });
}

describe('the custom logo', () => {
  it('is uploaded by an admin, shown at once, and seen by the rest of the team', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const org = await createOrganization();
    const member = await addMember(org, 'user');
    const first = renderApp({ client: org.masterAdmin.client, route: '/users' });
    await waitFor(() => expect(within(nav()).getByText('Master Admin')).toBeInTheDocument());
    expect(within(nav()).getByText('Steward')).toBeInTheDocument();

    const dialog = await openUploadDialog(user);
    expect(within(dialog).getByText(/Recommended height: 24-32px/)).toBeInTheDocument();
    const upload = within(dialog).getByRole('button', { name: 'Upload Logo' });
    expect(upload).toBeDisabled();
    await user.upload(within(dialog).getByLabelText('Logo file'), svgFile());
    await user.click(upload);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const logo = within(nav()).getByRole('img', { name: `${org.name} logo` });
    expect(decoded(logo.getAttribute('src')!)).toBe(SVG);
    expect(within(nav()).queryByText('Steward')).not.toBeInTheDocument();
    first.unmount();

    // Another member of the organisation gets it from the server.
    renderApp({ client: member.client, route: '/' });
    const seen = await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole(
      'img',
      { name: `${org.name} logo` },
    );
    expect(decoded(seen.getAttribute('src')!)).toBe(SVG);
  });

  it('refuses anything but an SVG, PNG, JPEG or WebP, and SVGs of 1MB or more', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const org = await createOrganization();
    renderApp({ client: org.masterAdmin.client, route: '/users' });
    const dialog = await openUploadDialog(user);
    const input = within(dialog).getByLabelText('Logo file') as HTMLInputElement;
    expect(input).toHaveAttribute(
      'accept',
      '.svg,image/svg+xml,.png,image/png,.jpg,.jpeg,image/jpeg,.webp,image/webp',
    );

    await user.upload(input, new File(['gif'], 'logo.gif', { type: 'image/gif' }));
    // Said under the field, which it describes; nothing is kept to upload.
    const refusal = 'Please upload an SVG, PNG, JPEG or WebP file.';
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription(/Please upload an SVG, PNG, JPEG or WebP file\.$/);
    expect(within(dialog).getByRole('button', { name: 'Upload Logo' })).toBeDisabled();
    expect(input.value).toBe('');

    await user.upload(input, svgFile(`<svg>${' '.repeat(1024 * 1024)}</svg>`));
    expect(await within(dialog).findByText('File size must be less than 1MB.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload Logo' })).toBeDisabled();
    // No dialog is opened over the form to say so.
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it(
    'makes a PNG the logo through the server, which resizes it, and shows it in the bar',
    { timeout: 90_000 },
    async () => {
      const user = userEvent.setup({ applyAccept: false });
      const org = await createOrganization();
      renderApp({ client: org.masterAdmin.client, route: '/users' });
      const dialog = await openUploadDialog(user);
      const png = Uint8Array.from(atob(PNG_1X1), (c) => c.charCodeAt(0));
      await user.upload(
        within(dialog).getByLabelText('Logo file'),
        new File([png], 'logo.png', { type: 'image/png' }),
      );
      await user.click(within(dialog).getByRole('button', { name: 'Upload Logo' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), {
        timeout: 60_000,
      });
      const logo = await within(nav()).findByRole('img', { name: `${org.name} logo` });
      expect(logo.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      expect(within(nav()).queryByText('Steward')).not.toBeInTheDocument();
    },
  );

  it('says why the server refused an image that is not one', { timeout: 90_000 }, async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup({ applyAccept: false });
    const org = await createOrganization();
    renderApp({ client: org.masterAdmin.client, route: '/users' });
    const dialog = await openUploadDialog(user);
    await user.upload(
      within(dialog).getByLabelText('Logo file'),
      new File(['not a picture'], 'logo.png', { type: 'image/png' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Upload Logo' }));
    await waitFor(
      () =>
        expect(
          screen.getByText('Failed to upload logo. The file is not a PNG, JPEG or WebP image.'),
        ).toBeInTheDocument(),
      { timeout: 60_000 },
    );
    expect(within(nav()).getByText('Steward')).toBeInTheDocument();
    logged.mockRestore();
  });

  it('says "Failed to upload logo." when the server refuses the upload', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup({ applyAccept: false });
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    renderApp({ client: admin.client, route: '/users' });
    const dialog = await openUploadDialog(user);
    await user.upload(within(dialog).getByLabelText('Logo file'), svgFile());
    // Meanwhile the master admin makes them a plain user, who may not change the logo.
    await org.masterAdmin.client.rpc('update_user_role', {
      user_id: admin.userId,
      new_role: 'user',
    });

    await user.click(within(dialog).getByRole('button', { name: 'Upload Logo' }));
    expect(await findNotice('Failed to upload logo.')).toBeInTheDocument();
    // The dialog stays, with the file chosen, to try again or cancel.
    expect(within(dialog).getByRole('button', { name: 'Upload Logo' })).toBeEnabled();
    expect(within(nav()).getByText('Steward')).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Logo upload failed', expect.anything());
    logged.mockRestore();
  });
});
