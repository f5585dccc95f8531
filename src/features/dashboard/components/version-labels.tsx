import { APP_ENVIRONMENT, APP_VERSION } from '../../../config/app-info.ts';

/** The product version and environment labels (spec §1). */
export function VersionLabels() {
  return (
    <dl className="flex flex-wrap justify-center gap-x-6 gap-y-1 text-xs text-gray-500">
      <div className="flex gap-1">
        <dt>Version</dt>
        <dd className="font-medium text-gray-700">{APP_VERSION}</dd>
      </div>
      <div className="flex gap-1">
        <dt>Environment</dt>
        <dd className="font-medium text-gray-700">{APP_ENVIRONMENT}</dd>
      </div>
    </dl>
  );
}
