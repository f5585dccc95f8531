import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { routePatterns } from '../config/paths.ts';
import { Spinner } from '../components/spinner.tsx';
import { RouteError } from './route-error.tsx';

/** Each page is its own chunk, loaded when its route is first visited. */
const page = (
  load: () => Promise<{ default: React.ComponentType }>,
): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    path: routePatterns.invitation,
    errorElement: <RouteError />,
    hydrateFallbackElement: <Spinner fullScreen />,
    ...page(() =>
      import('../features/invitations/accept-invitation-page.tsx').then((m) => ({
        default: m.AcceptInvitationPage,
      })),
    ),
  },
  {
    // Everything else sits inside the authenticated shell (spec §2).
    ...page(() => import('./shell.tsx').then((m) => ({ default: m.AppShell }))),
    errorElement: <RouteError />,
    hydrateFallbackElement: <Spinner fullScreen />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            index: true,
            ...page(() =>
              import('../features/dashboard/dashboard-page.tsx').then((m) => ({
                default: m.DashboardPage,
              })),
            ),
          },
          {
            path: routePatterns.documents,
            ...page(() =>
              import('../features/documents/documents-page.tsx').then((m) => ({
                default: m.DocumentsPage,
              })),
            ),
          },
          {
            path: routePatterns.upload,
            ...page(() =>
              import('../features/documents/upload-page.tsx').then((m) => ({
                default: m.UploadPage,
              })),
            ),
          },
          {
            path: routePatterns.operations,
            ...page(() =>
              import('../features/operations/operations-page.tsx').then((m) => ({
                default: m.OperationsPage,
              })),
            ),
          },
          {
            path: routePatterns.operationsCategory,
            ...page(() =>
              import('../features/operations/integration-category-page.tsx').then((m) => ({
                default: m.IntegrationCategoryPage,
              })),
            ),
          },
          {
            path: routePatterns.department,
            ...page(() =>
              import('../features/departments/department-page.tsx').then((m) => ({
                default: m.DepartmentPage,
              })),
            ),
          },
          {
            path: routePatterns.users,
            ...page(() =>
              import('../features/users/users-page.tsx').then((m) => ({ default: m.UsersPage })),
            ),
          },
          {
            path: routePatterns.oauth,
            ...page(() =>
              import('../features/oauth/connections-page.tsx').then((m) => ({
                default: m.ConnectionsPage,
              })),
            ),
          },
          {
            path: routePatterns.oauthCallback,
            ...page(() =>
              import('../features/oauth/oauth-callback-page.tsx').then((m) => ({
                default: m.OAuthCallbackPage,
              })),
            ),
          },
          {
            path: '*',
            ...page(() => import('./not-found.tsx').then((m) => ({ default: m.NotFoundPage }))),
          },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
