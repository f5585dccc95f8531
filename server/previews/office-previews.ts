import { LRUCache } from 'lru-cache';
import type { PreviewSettings } from '../config/preview-settings.ts';
import type { AppContext } from '../context.ts';
import type { renderOfficePreview } from '../workers/office-preview-tasks.ts';
import { TaskMemoryLimitError, type ProcessPool } from '../workers/process-pool.ts';
import { type FileStore, isStoredVersion } from '../storage/file-store.ts';
import { openFileStore } from '../storage/open-file-store.ts';
import { PreviewCache } from './preview-cache.ts';

/** A stored file to preview, as the route found it for its caller. */
export interface PreviewedFile {
  /** The stored version of the file: the cache's key, so a new version renders anew. */
  version: string;
  name: string;
  mimeType: string;
  /** Whose turn the rendering takes (one at a time per organisation). */
  organizationId: string;
}

export type OfficePreview =
  { state: 'ready'; html: string } | { state: 'unavailable'; reason: string };

export interface OfficePreviewsOptions {
  pool: ProcessPool<{ renderOfficePreview: typeof renderOfficePreview }>;
  /** Where the files are; on a bucket each rendering reads a local copy. */
  store: FileStore;
  dataDir: string;
  settings: PreviewSettings;
  maxUnpackedBytes: number;
}

/** HTML a preview may be, pictures included; a larger one is refused rather than kept and sent. */
const MAX_HTML_BYTES = 48 * 1024 ** 2;
/** How long a member waits for the organisation's turn before being asked to try again. */
const MAX_WAIT_MS = 30_000;
/** Versions remembered as not previewable (a hostile file is not rendered again at each look). */
const UNAVAILABLE_REMEMBERED = 1000;

/** A time limit in words: "1 minute", "2 minutes", "45 seconds", "1 second". */
function duration(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms >= 60_000 && ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  return plural(Math.max(1, Math.round(ms / 1000)), 'second');
}

/**
 * Word and Excel previews (issue 25, item 2): rendered in a capped background process, one at
 * a time per organisation (its lane in the pool's turns), within `[previews] timeout`, kept in
 * the cache per stored version; the same version asked for twice at once is rendered once.
 * A file that cannot be previewed (too large, damaged, past the memory cap) is remembered as
 * such, so a hostile file costs its organisation one rendering, not one per look.
 */
export class OfficePreviews {
  private readonly store: FileStore;
  private readonly cache: PreviewCache;
  private readonly running = new Map<string, Promise<OfficePreview>>();
  private readonly unavailable = new LRUCache<string, string>({ max: UNAVAILABLE_REMEMBERED });

  constructor(private readonly options: OfficePreviewsOptions) {
    this.store = options.store;
    this.cache = PreviewCache.of(options.dataDir, options.settings.cacheBytes);
  }

  /** The preview of `file`: from the cache, or rendered now. */
  async preview(file: PreviewedFile): Promise<OfficePreview> {
    if (!isStoredVersion(file.version))
      return { state: 'unavailable', reason: 'The file is missing' };
    const reason = this.unavailable.get(file.version);
    if (reason !== undefined) return { state: 'unavailable', reason };
    const cached = await this.cache.get(file.version);
    if (cached !== null) return { state: 'ready', html: cached };
    let rendering = this.running.get(file.version);
    if (!rendering) {
      rendering = this.render(file).finally(() => this.running.delete(file.version));
      this.running.set(file.version, rendering);
    }
    return rendering;
  }

  private async render(file: PreviewedFile): Promise<OfficePreview> {
    const { settings } = this.options;
    let result: OfficePreview;
    try {
      result = await this.store.withLocalFiles([file.version], ([path]) =>
        this.options.pool.run(
          'renderOfficePreview',
          {
            path: path!,
            name: file.name,
            mimeType: file.mimeType,
            maxUnpackedBytes: this.options.maxUnpackedBytes,
            maxRows: settings.maxRows,
            maxColumns: settings.maxColumns,
            maxImageBytes: settings.maxImageBytes,
            maxHtmlBytes: MAX_HTML_BYTES,
          },
          {
            lane: `preview:${file.organizationId}`,
            signal: AbortSignal.timeout(settings.timeoutMs),
            maxWaitMs: MAX_WAIT_MS,
          },
        ),
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { state: 'unavailable', reason: 'The file is missing' };
      }
      if (error instanceof TaskMemoryLimitError) {
        result = {
          state: 'unavailable',
          reason: `This file could not be previewed: ${error.message}`,
        };
      } else if ((error as Error).name === 'TimeoutError') {
        // Not remembered: under load a file within bounds can take longer once.
        return {
          state: 'unavailable',
          reason: `This file could not be previewed: it took longer than ${duration(settings.timeoutMs)}`,
        };
      } else {
        throw error;
      }
    }
    if (result.state === 'ready') await this.cache.put(file.version, result.html);
    else this.unavailable.set(file.version, result.reason);
    return result;
  }
}

const ofContext = new WeakMap<AppContext, OfficePreviews>();

/** The previews of the server of `ctx`: one for the members' routes and the share links. */
export function officePreviewsOf(ctx: AppContext): OfficePreviews {
  let previews = ofContext.get(ctx);
  if (!previews) {
    previews = new OfficePreviews({
      pool: ctx.backgroundProcesses,
      store: openFileStore(ctx.config.dataDir, ctx.config.storage.objects),
      dataDir: ctx.config.dataDir,
      settings: ctx.config.previews,
      maxUnpackedBytes: ctx.config.textExtraction.maxUnpackedBytes,
    });
    ofContext.set(ctx, previews);
  }
  return previews;
}
