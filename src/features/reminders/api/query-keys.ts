/** Query keys of the reminders feature; the first element is the table read. */
export const reminderKeys = {
  settings: (organizationId: string) => ['reminder_settings', organizationId] as const,
  mine: (userId: string) => ['user_profiles', 'email_reminders', userId] as const,
  calendar: (userId: string) => ['calendar_feeds', userId] as const,
  outbox: () => ['outbox_messages'] as const,
};
