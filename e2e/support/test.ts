import { test as base } from '@playwright/test';
import { accountMailbox, accountServerUrl, type Mailbox } from './account-server.ts';

export { expect } from '@playwright/test';

/**
 * Every spec's `test`. Playwright gives tests whose worker-scoped fixtures differ workers of
 * their own: when the account specs alone declared `mail` and `accountServerUrl`, the run
 * stopped both workers and their browsers and started two new ones for the account specs,
 * which always ran last. Declared here for all, they are set up only in a worker that runs a
 * test using them (support/accounts.ts); the account specs take their place in the order of the
 * files. The account server and its mail are the run's (support/account-server.ts, started by
 * the global set-up); these fixtures wait for it and read its mail.
 */
export const test = base.extend<object, { mail: Mailbox; accountServerUrl: string }>({
  mail: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; none here
    async ({}, use) => use(accountMailbox()),
    { scope: 'worker' },
  ],
  accountServerUrl: [
    // eslint-disable-next-line no-empty-pattern -- as above
    async ({}, use) => use(await accountServerUrl()),
    { scope: 'worker', timeout: 180_000 },
  ],
});
