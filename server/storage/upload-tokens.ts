import type { Queryable } from '../db/database.ts';

/**
 * Marks a signed upload URL's token as used; false when it already was. Expired marks are
 * dropped on the way: a token past its expiry is refused before it gets here.
 */
export async function claimUploadToken(
  db: Queryable,
  tokenId: string,
  expiresAt: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `with expired as (delete from storage.used_upload_tokens where expires_at < now())
     insert into storage.used_upload_tokens (id, expires_at) values ($1, to_timestamp($2))
     on conflict (id) do nothing
     returning id`,
    [tokenId, expiresAt],
  );
  return rows.length === 1;
}

/** Gives a token back after an upload that failed, so the URL can be tried again. */
export async function releaseUploadToken(db: Queryable, tokenId: string): Promise<void> {
  await db.query('delete from storage.used_upload_tokens where id = $1', [tokenId]);
}
