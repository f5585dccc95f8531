import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization, serviceClient } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { REMINDERS_NOT_EMAILED } from './components/my-reminders.tsx';

const PAGE = { timeout: 10_000 };

describe('reminders page', () => {
  it('turns one’s own reminders off and makes a calendar address, explaining calendars refresh slowly', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const user = userEvent.setup();
    renderApp({ client: member.client, route: '/reminders' });

    const mine = await screen.findByRole('region', { name: 'My reminders' }, PAGE);
    const checkbox = within(mine).getByRole('checkbox', { name: 'E-mail me reminders' });
    await waitFor(() => expect(checkbox).toBeEnabled());
    expect(checkbox).toBeChecked();
    // The test backend has no SMTP: the page says reminders are not e-mailed (issue 24).
    expect(await within(mine).findByRole('status', {}, PAGE)).toHaveTextContent(
      REMINDERS_NOT_EMAILED,
    );
    await user.click(checkbox);
    await waitFor(async () => {
      const { data } = await serviceClient()
        .from('user_profiles')
        .select('email_reminders')
        .eq('id', member.userId)
        .single();
      expect(data?.email_reminders).toBe(false);
    });

    const calendar = screen.getByRole('region', { name: 'Calendar' });
    expect(calendar).toHaveTextContent('refresh a subscription only every few hours');
    await user.click(within(calendar).getByRole('button', { name: 'Make my calendar address' }));
    const address = await within(calendar).findByLabelText(/Your calendar address/);
    expect((address as HTMLInputElement).value).toMatch(
      /\/functions\/v1\/calendar\/[0-9a-f]{64}\.ics$/,
    );
    // The address answers a calendar application with the feed.
    const response = await fetch((address as HTMLInputElement).value);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('BEGIN:VCALENDAR');

    // Members do not see the organisation's settings.
    expect(screen.queryByRole('region', { name: 'Reminder settings' })).not.toBeInTheDocument();
  });

  it('lets admins set the organisation’s reminders', async () => {
    const organization = await createOrganization();
    const user = userEvent.setup();
    renderApp({ client: organization.masterAdmin.client, route: '/reminders' });
    const settings = await screen.findByRole('region', { name: 'Reminder settings' }, PAGE);
    const days = await within(settings).findByLabelText(/Days before the expiry date/);
    expect(days).toHaveValue('30, 7, 1');
    await user.clear(days);
    await user.type(days, '60, 14');
    await user.selectOptions(within(settings).getByLabelText('Who receives them'), 'admins');
    await user.clear(within(settings).getByLabelText('Time zone'));
    await user.type(within(settings).getByLabelText('Time zone'), 'Europe/London');
    await user.click(within(settings).getByRole('button', { name: 'Save Settings' }));
    expect(await within(settings).findByText('Saved.')).toBeInTheDocument();
    const { data } = await serviceClient()
      .from('reminder_settings')
      .select('days_before, recipients, time_zone')
      .eq('organization_id', organization.organizationId)
      .single();
    expect(data).toEqual({
      days_before: [60, 14],
      recipients: 'admins',
      time_zone: 'Europe/London',
    });
  });

  it(
    'shows admins the Outbox, where a message kept without SMTP reads in full',
    { timeout: 30_000 },
    async () => {
      const organization = await createOrganization();
      const { data: document } = await serviceClient()
        .from('documents')
        .insert({
          organization_id: organization.organizationId,
          name: 'Lease.pdf',
          category: 'Legal',
          file_path: `documents/${organization.organizationId}/lease.pdf`,
        })
        .select('id')
        .single();
      const sent = await organization.masterAdmin.client.rpc('send_documents_email', {
        recipients: ['landlord@example.org'],
        subject: 'The lease',
        message: '',
        document_ids: [document!.id],
        as_links: false,
      });
      expect(sent.data?.status).toBe('outbox');
      const user = userEvent.setup();
      renderApp({ client: organization.masterAdmin.client, route: '/outbox' });
      const subject = await screen.findByText('The lease', {}, PAGE);
      expect(screen.getByText('In the Outbox (not sent)')).toBeInTheDocument();
      await user.click(subject);
      expect(
        await screen.findByText(/Lease\.pdf/, { selector: 'pre' }, { timeout: 15_000 }),
      ).toBeInTheDocument();
    },
  );
});
