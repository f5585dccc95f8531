import type { TomlTable } from './toml.ts';
import { tableAt } from './toml.ts';
import { durationSetting, integerSetting } from './values.ts';

/** How long a new share link lasts unless its maker chooses otherwise (issue 25). */
export const DEFAULT_SHARE_LINK_MS = 7 * 86_400_000;

/** Share links (steward.toml `[sharing]`): how long they may last, and how much use is allowed. */
export interface SharingSettings {
  /** The longest a link may last (`max_link_expiry`, at least "1h"). */
  maxLinkExpiryMs: number;
  /** Links one organisation may make in an hour (`links_per_hour`). */
  linksPerHour: number;
  /** Openings, unlock attempts and downloads of links from one client address a minute. */
  openingsPerMinute: number;
}

/** Document requests (steward.toml `[requests]`): their links and the uploads through them. */
export interface RequestSettings {
  /** How long a request link works after it is made or sent again (`link_lifetime`). */
  linkLifetimeMs: number;
  /** Uploads through request links from one client address in an hour. */
  uploadsPerAddressPerHour: number;
  /** Documents one organisation may receive through request links in an hour. */
  uploadsPerOrganizationPerHour: number;
}

function sourceIn(env: NodeJS.ProcessEnv, table: TomlTable, where: string) {
  return (key: string, envName: string) => ({
    table,
    where,
    key,
    env: { vars: env, name: envName },
  });
}

/** Reads `[sharing]` of steward.toml, each setting overridable by its variable. */
export function readSharingSettings(
  env: NodeJS.ProcessEnv,
  stewardToml: TomlTable,
  stewardName: string,
): SharingSettings {
  const where = `${stewardName} [sharing]`;
  const source = sourceIn(env, tableAt(stewardToml, 'sharing'), where);
  const maxLinkExpiryMs = durationSetting(
    source('max_link_expiry', 'SHARE_LINK_MAX_EXPIRY'),
    30 * 86_400_000,
  );
  if (maxLinkExpiryMs < 3_600_000) {
    throw new Error(`${where} max_link_expiry must be at least "1h"`);
  }
  return {
    maxLinkExpiryMs,
    linksPerHour: integerSetting(source('links_per_hour', 'SHARE_LINKS_PER_HOUR'), 100, 1),
    openingsPerMinute: integerSetting(
      source('openings_per_minute', 'SHARE_LINK_OPENINGS_PER_MINUTE'),
      60,
      1,
    ),
  };
}

/** Reads `[requests]` of steward.toml, each setting overridable by its variable. */
export function readRequestSettings(
  env: NodeJS.ProcessEnv,
  stewardToml: TomlTable,
  stewardName: string,
): RequestSettings {
  const where = `${stewardName} [requests]`;
  const source = sourceIn(env, tableAt(stewardToml, 'requests'), where);
  const linkLifetimeMs = durationSetting(
    source('link_lifetime', 'REQUEST_LINK_LIFETIME'),
    30 * 86_400_000,
  );
  if (linkLifetimeMs < 3_600_000) {
    throw new Error(`${where} link_lifetime must be at least "1h"`);
  }
  return {
    linkLifetimeMs,
    uploadsPerAddressPerHour: integerSetting(
      source('uploads_per_address_per_hour', 'REQUEST_UPLOADS_PER_ADDRESS_PER_HOUR'),
      20,
      1,
    ),
    uploadsPerOrganizationPerHour: integerSetting(
      source('uploads_per_organization_per_hour', 'REQUEST_UPLOADS_PER_ORGANIZATION_PER_HOUR'),
      200,
      1,
    ),
  };
}
