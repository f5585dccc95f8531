import type { Context } from 'hono';
import { storageErrors } from './errors.ts';
import { isValidBucketName, objectNameFromUrlPath } from './names.ts';

/**
 * The bucket and object name of a route written `…/:bucket/*`, taken from the request path as
 * sent (still percent-encoded) rather than from the router's partly decoded copy: the segment
 * under `:bucket` is the bucket, everything under `*` the object name, with `%2F` a `/`.
 */
export function objectParams(c: Context): { bucketId: string; name: string } {
  const pattern = c.req.routePath.split('/');
  const raw = new URL(c.req.url).pathname.split('/');
  const bucketIndex = pattern.indexOf(':bucket');
  const restIndex = pattern.indexOf('*');
  const bucketId = existingBucketName(decodeSegment(raw[bucketIndex] ?? ''));
  const name = objectNameFromUrlPath(restIndex < 0 ? '' : raw.slice(restIndex).join('/'));
  return { bucketId, name };
}

/** The bucket of a route written `…/:bucket` (or `…/:id` for the bucket API). */
export function bucketParam(c: Context, param = ':bucket'): string {
  const pattern = c.req.routePath.split('/');
  const raw = new URL(c.req.url).pathname.split('/');
  return existingBucketName(decodeSegment(raw[pattern.indexOf(param)] ?? ''));
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw storageErrors.noSuchBucket();
  }
}

/** A bucket name as a lookup key: one that could not exist is simply not found. */
export function existingBucketName(id: string): string {
  if (!isValidBucketName(id)) throw storageErrors.noSuchBucket();
  return id;
}
