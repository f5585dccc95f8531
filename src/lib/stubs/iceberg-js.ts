/**
 * Stands in for `iceberg-js` in the browser build (see vite.config.ts): storage-js uses it only
 * for analytics buckets, which Steward does not use.
 */
export class IcebergRestCatalog {
  constructor() {
    throw new Error('Analytics buckets are not part of Steward.');
  }
}
