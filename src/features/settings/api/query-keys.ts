/** The query keys of the settings feature (see src/README.md). */
export const settingsKeys = {
  departments: (organizationId: string) => ['departments', 'list', organizationId] as const,
  allDepartments: ['departments'] as const,
  mailServer: ['organization_mail_servers'] as const,
};
