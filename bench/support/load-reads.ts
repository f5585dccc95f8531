import { organizationOfContent, searchTerm } from './load-content.ts';
import { DOCUMENT_COLUMNS, pick, type Row } from './load-common.ts';
import type { VirtualUser } from './load-user.ts';

// The reading actions of a virtual user. Every row and file that comes back must be of the
// user's own organisation; anything else is recorded as a cross-organisation sighting.

/** The documents page: the newest 50 documents. */
export async function list(v: VirtualUser): Promise<void> {
  const answer = await v.request<Row[]>('list', () =>
    v.user.client
      .from('documents')
      .select(DOCUMENT_COLUMNS)
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .range(0, 49),
  );
  if (!answer) return;
  v.checkRows('list', answer.data ?? []);
  v.remember(answer.data ?? []);
}

/** The search box, sent to the server as a name filter. */
export async function search(v: VirtualUser): Promise<void> {
  const term = searchTerm(Math.floor(Math.random() * 1000));
  const answer = await v.request<Row[]>('search', () =>
    v.user.client
      .from('documents')
      .select(DOCUMENT_COLUMNS)
      .ilike('name', `%${term}%`)
      .order('created_at', { ascending: false })
      .limit(50),
  );
  if (!answer) return;
  v.checkRows('search', answer.data ?? []);
  v.remember(answer.data ?? []);
}

/** The preview: a signed link, then the bytes behind it, which must be this organisation's. */
export async function preview(v: VirtualUser): Promise<void> {
  const document = pick(v.known)!;
  const signed = await v.request<{ signedUrl: string }>('sign', () =>
    v.user.client.storage.from('documents').createSignedUrl(document.file_path, 3600),
  );
  if (!signed?.data) return;
  const url = signed.data.signedUrl;
  if (!url.includes(`/documents/${v.user.organizationId}/`)) {
    v.ctx.metrics.crossOrg(`sign: ${v.user.email} got a link outside its folder: ${url}`);
  }
  const fetched = await v.request<Buffer>('fetch-signed', async () => {
    const response = await fetch(url);
    const body = Buffer.from(await response.arrayBuffer());
    return response.ok
      ? { data: body, error: null }
      : {
          data: null,
          error: { message: `HTTP ${response.status}: ${body.toString().slice(0, 200)}` },
        };
  });
  if (!fetched?.data) return;
  const owner = organizationOfContent(fetched.data);
  if (owner !== v.user.organizationId) {
    v.ctx.metrics.crossOrg(`fetch-signed: ${v.user.email} received a file of ${owner}`);
  }
}

/** The dashboard's counters. */
export async function stats(v: VirtualUser): Promise<void> {
  const answer = await v.request<unknown>('stats', () => v.user.client.rpc('document_stats'));
  const row = (Array.isArray(answer?.data) ? answer.data[0] : answer?.data) as Row | undefined;
  if (answer && typeof row?.total !== 'number') {
    v.ctx.metrics.failed('stats', `unexpected answer ${JSON.stringify(answer.data)}`);
  }
}

/** Asks for another organisation's rows and file: both must come back empty. */
export async function probe(v: VirtualUser): Promise<void> {
  const others = v.ctx.organizations.filter((o) => o.id !== v.user.organizationId);
  const other = pick(others)!;
  const rows = await v.request<Row[]>('probe-rows', () =>
    v.user.client
      .from('documents')
      .select('id, organization_id')
      .eq('organization_id', other.id)
      .limit(5),
  );
  if (rows) v.checkRows('probe-rows', rows.data ?? []);
  const target = [...v.ctx.ledger.documents.values()].find((d) => d.organizationId === other.id);
  if (!target) return;
  const started = performance.now();
  try {
    const { data, error } = await v.user.client.storage.from('documents').download(target.filePath);
    if (data) {
      v.ctx.metrics.crossOrg(`probe-file: ${v.user.email} downloaded ${target.filePath}`);
    } else if (error?.message === 'Object not found') {
      v.ctx.metrics.ok('probe-file', performance.now() - started);
    } else {
      v.ctx.metrics.failed('probe-file', error?.message ?? 'no answer');
    }
  } catch (error) {
    v.ctx.metrics.failed('probe-file', (error as Error).message);
  }
}
