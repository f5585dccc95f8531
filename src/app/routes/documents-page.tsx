import { EmailDocumentsDialog } from '../../features/category-documents/components/email-documents-dialog.tsx';
import { sentNotice } from '../../features/category-documents/api/send-documents-email.ts';
import { DocumentsPage as DocumentsFeaturePage } from '../../features/documents/documents-page.tsx';
import { useToast } from '../../components/ui/toast.tsx';

/**
 * /documents: the documents feature's page, with the e-mail dialog of the category lists for a
 * row's Email and the bulk bar's Email Selected (issue 25): e-mailing documents is no longer
 * reachable only from the category pages.
 */
export function DocumentsPage() {
  const toast = useToast();
  return (
    <DocumentsFeaturePage
      emailDialog={(documents, { onClose, onSent }) => (
        <EmailDocumentsDialog
          documents={documents}
          onClose={onClose}
          onSent={(status) => {
            onSent();
            toast(sentNotice(status));
          }}
        />
      )}
    />
  );
}
