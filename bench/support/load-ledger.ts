import type { SupabaseClient } from '@supabase/supabase-js';
import { sha256 } from './load-content.ts';

/** The properties a user edits (docs/data-model.md, `documents`). */
export interface DocumentProperties {
  category: string;
  expiry_date: string | null;
  tags: string[];
  description: string | null;
}

/** What the server acknowledged (a 2xx answer) for one document, and what was in flight. */
export interface DocumentState {
  id: string;
  organizationId: string;
  filePath: string;
  acked: { contentSha: string; size: number; properties: DocumentProperties };
  /**
   * A write sent but not (yet) acknowledged. After a crash the server may have committed it or
   * not, so either value is right; anything else is a lost or invented write.
   */
  pending: {
    contentSha?: string;
    size?: number;
    properties?: DocumentProperties;
    /** A content edit's new file (the app stores it under a new name, then points the row at it). */
    filePath?: string;
  };
}

/** One upload: bytes first, then the row (as the app does it). */
export interface UploadAttempt {
  organizationId: string;
  filePath: string;
  contentSha: string;
  objectAcked: boolean;
  rowAcked: boolean;
}

/**
 * Every write of the load test with whether it was acknowledged, so that after a crash and
 * restart the store can be compared with what the users were told.
 */
export class WriteLedger {
  readonly documents = new Map<string, DocumentState>();
  readonly uploads: UploadAttempt[] = [];
  /** Invitations acknowledged (e-mail addresses), and those sent without an answer. */
  readonly invitations = { acked: new Set<string>(), pending: new Set<string>() };
}

export interface LedgerCheck {
  documentsChecked: number;
  objectsChecked: number;
  invitationsChecked: number;
  /** Acknowledged writes missing or different after the restart (must be none). */
  lost: string[];
  /** Uploads whose row was never acknowledged: the only ones that may leave an orphan. */
  uploadsWithoutAckedRow: Set<string>;
  /** Content edits whose size update was not acknowledged (the row may show the old size). */
  contentEditsInFlight: number;
}

const same = (a: DocumentProperties, b: Record<string, unknown>) =>
  a.category === b.category &&
  (a.expiry_date ?? null) === (b.expiry_date ?? null) &&
  JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
  (a.description ?? null) === (b.description ?? null);

/**
 * Compares the ledger with the store, read with the service role: every acknowledged document
 * row with its acknowledged (or in-flight) properties, size and bytes; every acknowledged
 * upload's bytes; every acknowledged invitation.
 */
export async function checkLedger(
  ledger: WriteLedger,
  service: SupabaseClient,
): Promise<LedgerCheck> {
  const lost: string[] = [];
  const rows = new Map<string, Record<string, unknown>>();
  for (let from = 0; ; from += 1000) {
    const { data, error } = await service
      .from('documents')
      .select('id, organization_id, file_path, size, category, expiry_date, tags, description')
      .order('id')
      .range(from, from + 999);
    if (error) throw new Error(`reading documents failed: ${error.message}`);
    for (const row of data as Record<string, unknown>[]) rows.set(row.id as string, row);
    if (data.length < 1000) break;
  }

  const bucket = service.storage.from('documents');
  const download = async (filePath: string) => {
    const { data, error } = await bucket.download(filePath);
    return error || !data ? null : sha256(new Uint8Array(await data.arrayBuffer()));
  };

  let objectsChecked = 0;
  let contentEditsInFlight = 0;
  for (const document of ledger.documents.values()) {
    const row = rows.get(document.id);
    if (!row) {
      lost.push(`document ${document.id}: row missing`);
      continue;
    }
    const paths = [document.filePath, document.pending.filePath].filter(Boolean);
    if (row.organization_id !== document.organizationId || !paths.includes(String(row.file_path))) {
      lost.push(`document ${document.id}: organisation or file path changed`);
    }
    const properties = [document.acked.properties, document.pending.properties].filter(
      (p): p is DocumentProperties => p !== undefined,
    );
    if (!properties.some((p) => same(p, row))) {
      lost.push(
        `document ${document.id}: properties are neither the acknowledged nor the in-flight ones`,
      );
    }
    const sizes = [document.acked.size, document.pending.size].filter((s) => s !== undefined);
    if (!sizes.includes(Number(row.size)))
      lost.push(`document ${document.id}: size ${String(row.size)}`);
    if (document.pending.size !== undefined || document.pending.contentSha !== undefined) {
      contentEditsInFlight++;
    }
    const stored = await download(String(row.file_path));
    objectsChecked++;
    const contents = [document.acked.contentSha, document.pending.contentSha].filter(Boolean);
    if (stored === null) lost.push(`document ${document.id}: file missing`);
    else if (!contents.includes(stored)) lost.push(`document ${document.id}: file content differs`);
  }

  const uploadsWithoutAckedRow = new Set<string>();
  for (const upload of ledger.uploads) {
    if (upload.rowAcked) continue;
    uploadsWithoutAckedRow.add(upload.filePath);
    if (!upload.objectAcked) continue;
    // Acknowledged bytes whose row never was: still an acknowledged write, so still there.
    objectsChecked++;
    const stored = await download(upload.filePath);
    if (stored !== upload.contentSha)
      lost.push(`upload ${upload.filePath}: acknowledged file missing`);
  }

  const acked = [...ledger.invitations.acked];
  for (let i = 0; i < acked.length; i += 100) {
    const batch = acked.slice(i, i + 100);
    const { data, error } = await service
      .from('user_invitations')
      .select('email')
      .in('email', batch);
    if (error) throw new Error(`reading invitations failed: ${error.message}`);
    const found = new Set((data as { email: string }[]).map((row) => row.email));
    for (const email of batch) if (!found.has(email)) lost.push(`invitation ${email} missing`);
  }

  return {
    documentsChecked: ledger.documents.size,
    objectsChecked,
    invitationsChecked: acked.length,
    lost,
    uploadsWithoutAckedRow,
    contentEditsInFlight,
  };
}
