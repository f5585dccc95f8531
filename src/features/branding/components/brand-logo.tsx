import { ImageUp } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { useOrganizationLogo } from '../api/logo.ts';

// Loaded when opened: the navigation bar is on the path of every page.
const LogoUploadDialog = lazy(async () => ({
  default: (await import('./logo-upload-dialog.tsx')).LogoUploadDialog,
}));

export interface BrandLogoProps {
  organizationId: string | null;
  organizationName: string | null;
  /** Admins may replace the logo (spec §6). */
  canUpload: boolean;
}

/**
 * The navigation bar's logo: the organisation's custom logo when one is stored, otherwise the
 * product name and the organisation's; for admins, a button that opens the logo upload dialog.
 */
export function BrandLogo({ organizationId, organizationName, canUpload }: BrandLogoProps) {
  const url = useOrganizationLogo(organizationId);
  const [uploading, setUploading] = useState(false);

  return (
    <div className="flex shrink-0 items-center gap-1">
      <Link
        to={paths.dashboard}
        className="flex min-w-0 flex-col justify-center rounded-md leading-tight focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600"
      >
        {url ? (
          <img
            src={url}
            alt={`${organizationName ?? 'Organization'} logo`}
            className="h-8 w-auto max-w-[9rem] object-contain sm:max-w-[12rem]"
          />
        ) : (
          <span className="truncate text-lg leading-tight font-bold text-primary-700">Steward</span>
        )}
        {/* Whose Steward this is; the logo names the organisation when there is one. */}
        {!url && organizationName && (
          <span
            className="max-w-[8rem] truncate text-xs font-medium text-gray-600"
            title={organizationName}
          >
            {organizationName}
          </span>
        )}
      </Link>
      {canUpload && organizationId && (
        <>
          <Button
            variant="ghost"
            size="icon"
            onClick={() => setUploading(true)}
            aria-label="Upload custom logo"
            title="Upload custom logo"
          >
            <ImageUp className="h-4 w-4" aria-hidden="true" />
          </Button>
          {uploading && (
            <Suspense fallback={null}>
              <LogoUploadDialog
                organizationId={organizationId}
                onClose={() => setUploading(false)}
              />
            </Suspense>
          )}
        </>
      )}
    </div>
  );
}
