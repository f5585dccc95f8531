import {
  Component,
  lazy,
  Suspense,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.tsx';
import { routePatterns } from '../config/paths.ts';
import { RouteError } from './route-error.tsx';

/** Each page is its own chunk, loaded when its route is first visited. */
function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const AppShell = lazyPage(() => import('./shell.tsx'), 'AppShell');
const AcceptInvitationPage = lazyPage(
  () => import('../features/invitations/accept-invitation-page.tsx'),
  'AcceptInvitationPage',
);
const ResetPasswordPage = lazyPage(
  () => import('../features/auth/reset-password-page.tsx'),
  'ResetPasswordPage',
);
const ConfirmEmailPage = lazyPage(
  () => import('../features/auth/confirm-email-page.tsx'),
  'ConfirmEmailPage',
);
const DashboardPage = lazyPage(() => import('./routes/dashboard-page.tsx'), 'DashboardPage');
const DocumentsPage = lazyPage(() => import('./routes/documents-page.tsx'), 'DocumentsPage');
const UploadPage = lazyPage(() => import('../features/documents/upload-page.tsx'), 'UploadPage');
const OperationsPage = lazyPage(
  () => import('../features/operations/operations-page.tsx'),
  'OperationsPage',
);
const IntegrationCategoryPage = lazyPage(
  () => import('./routes/integration-category-page.tsx'),
  'IntegrationCategoryPage',
);
const DepartmentPage = lazyPage(() => import('./routes/department-page.tsx'), 'DepartmentPage');
const UsersPage = lazyPage(() => import('./routes/users-page.tsx'), 'UsersPage');
const ConnectionsPage = lazyPage(
  () => import('../features/oauth/connections-page.tsx'),
  'ConnectionsPage',
);
const OAuthCallbackPage = lazyPage(
  () => import('../features/oauth/oauth-callback-page.tsx'),
  'OAuthCallbackPage',
);
const RemindersPage = lazyPage(
  () => import('../features/reminders/reminders-page.tsx'),
  'RemindersPage',
);
const OutboxPage = lazyPage(() => import('../features/reminders/outbox-page.tsx'), 'OutboxPage');
const TrashPage = lazyPage(() => import('../features/trash/trash-page.tsx'), 'TrashPage');
const ActivityPage = lazyPage(
  () => import('../features/activity/activity-page.tsx'),
  'ActivityPage',
);
const OutsidePage = lazyPage(() => import('./routes/outside-pages.tsx'), 'OutsidePage');
const SettingsPage = lazyPage(() => import('./routes/settings-page.tsx'), 'SettingsPage');
const CategoriesPage = lazyPage(
  () => import('../features/categories/categories-page.tsx'),
  'CategoriesPage',
);
const NotFoundPage = lazyPage(() => import('./not-found.tsx'), 'NotFoundPage');

/** Catches what one route throws while loading or rendering; the rest of the app stays. */
class RouteErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A page failed to render:', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/**
 * A route's element: its own error boundary and loading spinner. Keyed by path so that moving
 * to another page clears an error shown for the previous one.
 */
function Page({
  component: PageComponent,
  fullScreen = false,
}: {
  component: ComponentType;
  fullScreen?: boolean;
}) {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<Spinner fullScreen={fullScreen} />}>
        <PageComponent />
      </Suspense>
    </RouteErrorBoundary>
  );
}

/** The shell stays mounted across pages; its boundary only catches the shell's own failures. */
function Shell() {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<Spinner fullScreen />}>
        <AppShell />
      </Suspense>
    </RouteErrorBoundary>
  );
}

/** The route table of product-spec §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path={routePatterns.invitation}
        element={<Page component={AcceptInvitationPage} fullScreen />}
      />
      <Route
        path={routePatterns.resetPassword}
        element={<Page component={ResetPasswordPage} fullScreen />}
      />
      <Route
        path={routePatterns.confirmEmail}
        element={<Page component={ConfirmEmailPage} fullScreen />}
      />
      {/* Pages for people without an account: a share link, a document request's link. */}
      <Route path={routePatterns.sharedDocument} element={<Page component={OutsidePage} />} />
      <Route path={routePatterns.requestUpload} element={<Page component={OutsidePage} />} />
      {/* Everything else sits inside the authenticated shell. */}
      <Route element={<Shell />}>
        <Route index element={<Page component={DashboardPage} />} />
        <Route path={routePatterns.documents} element={<Page component={DocumentsPage} />} />
        <Route path={routePatterns.upload} element={<Page component={UploadPage} />} />
        <Route path={routePatterns.operations} element={<Page component={OperationsPage} />} />
        <Route
          path={routePatterns.operationsCategory}
          element={<Page component={IntegrationCategoryPage} />}
        />
        <Route path={routePatterns.department} element={<Page component={DepartmentPage} />} />
        <Route path={routePatterns.users} element={<Page component={UsersPage} />} />
        <Route path={routePatterns.oauth} element={<Page component={ConnectionsPage} />} />
        <Route path={routePatterns.reminders} element={<Page component={RemindersPage} />} />
        <Route path={routePatterns.outbox} element={<Page component={OutboxPage} />} />
        <Route path={routePatterns.requests} element={<Page component={OutsidePage} />} />
        <Route path={routePatterns.trash} element={<Page component={TrashPage} />} />
        <Route path={routePatterns.activity} element={<Page component={ActivityPage} />} />
        <Route path={routePatterns.settings} element={<Page component={SettingsPage} />} />
        <Route path={routePatterns.categories} element={<Page component={CategoriesPage} />} />
        <Route
          path={routePatterns.oauthCallback}
          element={<Page component={OAuthCallbackPage} />}
        />
        <Route path="*" element={<Page component={NotFoundPage} />} />
      </Route>
    </Routes>
  );
}
