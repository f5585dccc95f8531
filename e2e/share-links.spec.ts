import { expectFitsScreen, PHONE, saveScreenshot } from './support/mobile.ts';
import { serviceClient } from './support/oauth.ts';
import { chooseRowAction, makePdf, signInNewOrganization } from './support/documents.ts';
import { expect, test } from './support/test.ts';

// Share links in Chromium (issue 25, item 3): a member makes a link with a password from the
// document's preview; the link opens in a fresh browser context (no account, no session), asks
// for its password, then shows the document's name, its preview and Download and nothing else
// of the organisation; after Revoke the same address says the link does not work. A second link,
// made from the row's Share, says the same once its time is over (its dates moved into the past
// by the service role: the e2e server's clock cannot be moved). At a desktop's and a phone's
// width, with screenshots in test-results/mobile/.

for (const [label, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', PHONE],
] as const) {
  test(`a share link with a password opens without an account and dies after revoke and after expiry (${label})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const { api, organizationId, organizationName } = await signInNewOrganization(page, baseURL!);
    const pdf = makePdf('Certificate of public liability insurance');
    const stored = `documents/${organizationId}/${Date.now()}-insurance.pdf`;
    expect(
      (await api.storage.from('documents').upload(stored, pdf, { contentType: 'application/pdf' }))
        .error,
    ).toBeNull();
    const inserted = await api.from('documents').insert({
      organization_id: organizationId,
      name: 'Insurance certificate.pdf',
      category: 'Legal',
      file_path: stored,
      size: pdf.length,
    });
    expect(inserted.error).toBeNull();

    await page.goto('/documents');
    await chooseRowAction(page, 'Insurance certificate.pdf', 'View');
    const preview = page.getByRole('dialog', { name: /Insurance certificate\.pdf/ });
    // The preview first: the PDF viewer takes the focus once it has loaded.
    await expect(preview.getByTestId('preview-media')).toBeVisible();
    await expect(async () => {
      await preview.getByRole('tab', { name: 'Share' }).click();
      await expect(preview.getByLabel('Who is it for?')).toBeVisible({ timeout: 1000 });
    }).toPass();
    await preview.getByLabel('Who is it for?').fill('Riverside Hall');
    await preview.getByLabel('Password (optional)').fill('hall-2026');
    await preview.getByRole('button', { name: 'Create link' }).click();
    const address = preview.getByLabel('Share this link');
    await expect(address).toHaveValue(/\/s\/[0-9a-f]{64}$/);
    const url = await address.inputValue();
    await expect(preview.getByText('Riverside Hall')).toBeVisible();
    await expectFitsScreen(page, `share tab (${label})`);
    await saveScreenshot(page, `share link tab ${label}`, false);

    // A visitor: a fresh context, with nothing of the member's session.
    const visitor = await browser.newContext({ viewport });
    const shared = await visitor.newPage();
    await shared.goto(url);
    await expect(shared.getByRole('heading', { name: 'This link is protected' })).toBeVisible();
    await expect(shared.getByText('Insurance certificate.pdf')).toHaveCount(0);
    await shared.getByLabel('Password').fill('wrong password');
    await shared.getByRole('button', { name: 'Open' }).click();
    await expect(shared.getByText('Wrong password')).toBeVisible();
    await shared.getByLabel('Password').fill('hall-2026');
    await shared.getByRole('button', { name: 'Open' }).click();
    await expect(shared.getByRole('heading', { name: 'Insurance certificate.pdf' })).toBeVisible();
    await expect(shared.getByTitle('Preview of Insurance certificate.pdf')).toBeVisible();
    // Framed from an address ending with the document's name: the PDF viewer's title.
    await expect(shared.getByTitle('Preview of Insurance certificate.pdf')).toHaveAttribute(
      'src',
      /\/file\/Insurance%20certificate\.pdf\?access=/,
    );
    await expect(shared.getByText(organizationName)).toHaveCount(0);
    const downloading = shared.waitForEvent('download');
    await shared.getByRole('link', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Insurance certificate.pdf');
    await expectFitsScreen(shared, `shared page (${label})`);
    await saveScreenshot(shared, `shared document ${label}`);

    // The opening is in the document's history.
    await preview.getByRole('tab', { name: 'History' }).click();
    await expect(
      preview.getByText('Opened a share link to "Insurance certificate.pdf"'),
    ).toBeVisible();

    // Revoked: the same address no longer works, in another fresh context too.
    await preview.getByRole('tab', { name: 'Share' }).click();
    await preview.getByRole('button', { name: 'Revoke Riverside Hall' }).click();
    await page
      .getByRole('dialog', { name: 'Please confirm' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(preview.getByText('No links to this document work now.')).toBeVisible();
    const later = await (await browser.newContext({ viewport })).newPage();
    await later.goto(url);
    await expect(
      later.getByText('This link does not work. It may have expired or been revoked.'),
    ).toBeVisible();
    await saveScreenshot(later, `shared link revoked ${label}`);

    // Expired: a link made from the row's Share stops when its time is over.
    await page.keyboard.press('Escape');
    await expect(preview).toBeHidden();
    await chooseRowAction(page, 'Insurance certificate.pdf', 'Share');
    const sharing = page.getByRole('dialog', { name: /Insurance certificate\.pdf/ });
    await sharing.getByLabel('Who is it for?').fill('Parents');
    await sharing.getByRole('button', { name: 'Create link' }).click();
    const second = sharing.getByLabel('Share this link');
    await expect(second).toHaveValue(/\/s\/[0-9a-f]{64}$/);
    const parentsUrl = await second.inputValue();
    const service = await serviceClient(baseURL!);
    const aged = await service
      .from('share_links')
      .update({
        created_at: new Date(Date.now() - 8 * 86_400_000).toISOString(),
        expires_at: new Date(Date.now() - 86_400_000).toISOString(),
      })
      .eq('label', 'Parents')
      .eq('organization_id', organizationId)
      .select('id');
    expect(aged.data).toHaveLength(1);
    await later.goto(parentsUrl);
    await expect(
      later.getByText('This link does not work. It may have expired or been revoked.'),
    ).toBeVisible();
    await visitor.close();
    await later.context().close();
  });
}
