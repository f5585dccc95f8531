import { randomBytes } from 'node:crypto';
import { DOCUMENT_CATEGORIES } from '../../src/config/document-categories.ts';
import { documentName, fileContent, sha256 } from './load-content.ts';
import type { DocumentProperties } from './load-ledger.ts';
import { DOCUMENT_COLUMNS, pick, type Row } from './load-common.ts';
import type { VirtualUser } from './load-user.ts';

// The writing actions of a virtual user, each recorded in the ledger before it is sent
// (pending) and again when the server acknowledges it, so a crash can be judged afterwards.

/** The app's upload: the bytes to the organisation's folder, then the row. */
export async function upload(v: VirtualUser): Promise<void> {
  const n = v.next();
  const content = fileContent(v.user.organizationId, `upload ${n}`);
  const filePath = `documents/${v.user.organizationId}/${Date.now()}-${randomBytes(6).toString('hex')}.txt`;
  const attempt = {
    organizationId: v.user.organizationId,
    filePath,
    contentSha: sha256(content),
    objectAcked: false,
    rowAcked: false,
  };
  v.ctx.ledger.uploads.push(attempt);
  const stored = await v.request('upload', () =>
    v.user.client.storage
      .from('documents')
      .upload(filePath, content, { contentType: 'text/plain', upsert: false }),
  );
  if (!stored) return;
  attempt.objectAcked = true;
  const properties: DocumentProperties = randomProperties();
  const inserted = await v.request<Row>('insert', () =>
    v.user.client
      .from('documents')
      .insert({
        ...properties,
        organization_id: v.user.organizationId,
        name: documentName(v.user.index * 10_000 + n),
        size: content.length,
        file_path: filePath,
        status: 'Active',
      })
      .select(DOCUMENT_COLUMNS)
      .single(),
  );
  if (!inserted?.data) return;
  attempt.rowAcked = true;
  v.checkRows('insert', [inserted.data]);
  const id = inserted.data.id as string;
  v.user.own.push(id);
  v.ctx.ledger.documents.set(id, {
    id,
    organizationId: v.user.organizationId,
    filePath,
    acked: { contentSha: attempt.contentSha, size: content.length, properties },
    pending: {},
  });
}

/** The edit-properties modal. */
export async function editProperties(v: VirtualUser): Promise<void> {
  const state = v.ctx.ledger.documents.get(pick(v.user.own)!)!;
  const properties = randomProperties();
  state.pending.properties = properties;
  const answer = await v.request<Row>('update-properties', () =>
    v.user.client
      .from('documents')
      .update(properties)
      .eq('id', state.id)
      .select(DOCUMENT_COLUMNS)
      .single(),
  );
  if (!answer?.data) return;
  v.checkRows('update-properties', [answer.data]);
  state.acked.properties = properties;
  delete state.pending.properties;
}

/**
 * The app's content edit (Edit Content, src/features/documents/api/document-content.ts): the
 * new text stored under a new name, then `replace_document_file` points the document at it in
 * one transaction (the earlier file kept as a version), then the row read back. Stored files
 * are never overwritten (issue 22, R7).
 */
export async function editContent(v: VirtualUser): Promise<void> {
  const state = v.ctx.ledger.documents.get(pick(v.user.own)!)!;
  const content = fileContent(v.user.organizationId, `edit ${v.next()}`);
  const filePath = `documents/${v.user.organizationId}/${Date.now()}-${randomBytes(6).toString('hex')}.txt`;
  // Its bytes are an upload whose "row" is the document pointing at it.
  const attempt = {
    organizationId: v.user.organizationId,
    filePath,
    contentSha: sha256(content),
    objectAcked: false,
    rowAcked: false,
  };
  v.ctx.ledger.uploads.push(attempt);
  // Timed as an upload (it is one); the edit itself is the function call.
  const stored = await v.request('upload', () =>
    v.user.client.storage
      .from('documents')
      .upload(filePath, content, { contentType: 'text/plain', upsert: false }),
  );
  if (!stored) return;
  attempt.objectAcked = true;
  state.pending.contentSha = attempt.contentSha;
  state.pending.size = content.length;
  state.pending.filePath = filePath;
  const replaced = await v.request('update-content', () =>
    v.user.client.rpc('replace_document_file', {
      document_id: state.id,
      file_path: filePath,
      change: 'content_edit',
    }),
  );
  if (!replaced) return;
  attempt.rowAcked = true;
  state.filePath = filePath;
  state.acked.contentSha = attempt.contentSha;
  state.acked.size = content.length;
  delete state.pending.contentSha;
  delete state.pending.size;
  delete state.pending.filePath;
  const row = await v.request<Row>('read-edited', () =>
    v.user.client.from('documents').select('id, organization_id, size').eq('id', state.id).single(),
  );
  if (!row?.data) return;
  v.checkRows('read-edited', [row.data]);
}

/** An admin invites someone (rpc `invite_user`). */
export async function invite(v: VirtualUser): Promise<void> {
  const email = `invitee-${v.ctx.runId}-u${v.user.index}-${v.user.organizationId.slice(0, 8)}-${v.next()}@example.test`;
  v.ctx.ledger.invitations.pending.add(email);
  const answer = await v.request('invite', () =>
    v.user.client.rpc('invite_user', { email, role: 'user', full_name: 'New volunteer' }),
  );
  if (!answer) return;
  v.ctx.ledger.invitations.pending.delete(email);
  v.ctx.ledger.invitations.acked.add(email);
}

function randomProperties(): DocumentProperties {
  const withExpiry = Math.random() < 0.4;
  return {
    category: pick([...DOCUMENT_CATEGORIES])!,
    expiry_date: withExpiry
      ? new Date(Date.now() + (Math.floor(Math.random() * 120) - 30) * 86_400_000)
          .toISOString()
          .slice(0, 10)
      : null,
    tags: Math.random() < 0.5 ? ['load', `batch-${Math.floor(Math.random() * 5)}`] : ['load'],
    description: Math.random() < 0.3 ? 'Updated during the load test' : null,
  };
}
