import { useLocation } from 'react-router-dom';
import { routePatterns } from '../../config/paths.ts';
import { ShareLinksPage } from '../../features/documents/share-links-page.tsx';
import { RequestsPage } from '../../features/requests/requests-page.tsx';
import { RequestUploadPage } from '../../features/requests/request-upload-page.tsx';
import { SharedDocumentPage } from '../../features/sharing/shared-document-page.tsx';

/** The fixed start of a route pattern, before its first parameter. */
const prefix = (pattern: string) => pattern.slice(0, pattern.indexOf(':'));

/**
 * The pages of documents that go to people outside the organisation or come from them: a share
 * link's page and a request link's upload page (no account), and for admins the organisation's
 * document requests and share links. One chunk behind one loader: every route and loader in
 * the route table is on the dashboard's path (tests/build/bundle-budget.test.ts).
 */
export function OutsidePage() {
  const { pathname } = useLocation();
  if (pathname.startsWith(prefix(routePatterns.sharedDocument))) return <SharedDocumentPage />;
  if (pathname.startsWith(prefix(routePatterns.requestUpload))) return <RequestUploadPage />;
  return (
    <div className="space-y-10">
      <RequestsPage />
      <ShareLinksPage />
    </div>
  );
}
