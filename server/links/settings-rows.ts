import type { RequestSettings, SharingSettings } from '../config/link-settings.ts';
import { DEFAULT_SHARE_LINK_MS } from '../config/link-settings.ts';
import type { Queryable } from '../db/database.ts';

const seconds = (ms: number) => ms / 1000;

/**
 * Writes steward.toml's `[sharing]` and `[requests]` into the rows their functions read
 * (supabase/schemas/21_share_links.sql, 22_document_requests.sql): the longest share link and
 * the default one (7 days, or the longest when that is shorter), links an hour, the lifetime of
 * a request link and the documents an organisation may receive an hour. A database without
 * those tables (the storage service's own tests) has neither.
 */
export async function applyLinkSettings(
  db: Queryable,
  sharing: SharingSettings,
  requests: RequestSettings,
): Promise<void> {
  const { rows } = await db.query<{ sharing: boolean; requests: boolean }>(
    `select to_regclass('private.share_link_settings') is not null as sharing,
            to_regclass('private.document_request_settings') is not null as requests`,
  );
  if (rows[0]?.sharing) {
    await db.query(
      `update private.share_link_settings
          set max_expiry = make_interval(secs => $1), default_expiry = make_interval(secs => $2),
              links_per_hour = $3, updated_at = now()`,
      [
        seconds(sharing.maxLinkExpiryMs),
        seconds(Math.min(DEFAULT_SHARE_LINK_MS, sharing.maxLinkExpiryMs)),
        sharing.linksPerHour,
      ],
    );
  }
  if (rows[0]?.requests) {
    await db.query(
      `update private.document_request_settings
          set link_lifetime = make_interval(secs => $1),
              uploads_per_organization_per_hour = $2, updated_at = now()`,
      [seconds(requests.linkLifetimeMs), requests.uploadsPerOrganizationPerHour],
    );
  }
}
