import { describe, expect, it } from 'vitest';
import { createContactsStore, OPT_OUT_BATCH } from './contacts';
import { fakeApi, importJob } from '../test/fakes';
import type { SegmentSummary } from '../api';
import { createClient, createWebTransport, type OutputOf, type PayloadOf } from '../../../shared/ipc';

const segment = (id: number, name: string): SegmentSummary => ({
  id,
  name,
  columns: [],
  member_count: 3,
  status: 'ready',
  source: { kind: 'import', label: `${name}.csv` },
  created_at: 0,
});

/** An opt-out file's job as imports:get answers it. */
const jobView = (overrides: Partial<OutputOf<'imports:get'>>) =>
  importJob({ job_id: 1, kind: 'optouts', segment_id: null, file_name: 'numbers.csv', ...overrides });

describe('contacts store', () => {
  it('keeps the segments on screen when the core cannot be reached, and waits when it never answered', async () => {
    let up = true;
    const transport = createWebTransport({
      fetch: (async () => {
        if (!up) throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ ok: true, value: [segment(1, 'club')] }));
      }) as unknown as typeof fetch,
      reconnectDelaysMs: [60_000],
    });
    const api = { ...fakeApi().api, ...createClient(transport) };
    const store = createContactsStore(api);
    await store.getState().load(1);
    up = false;
    await store.getState().refresh();
    expect(store.getState().segments?.map((s) => s.id)).toEqual([1]);
    // Not an error of the list: the shell's banner says the core is out of reach.
    expect(store.getState().error).toBeNull();
    // Never read: still loading, not "no segments yet".
    const fresh = createContactsStore(api);
    await fresh.getState().load(1);
    expect(fresh.getState().segments).toBeNull();
  });

  it('lists, searches, renames and deletes segments of the account', async () => {
    let segments = [segment(1, 'club'), segment(2, 'shop')];
    const { api, transport } = fakeApi({
      'segments:list': (input) => segments.filter((s) => !input.search || s.name.includes(input.search)),
      'segments:rename': (input) => {
        segments = segments.map((s) => (s.id === input.segment_id ? { ...s, name: input.name } : s));
        return segments.find((s) => s.id === input.segment_id)!;
      },
      'segments:delete': (input) => {
        segments = segments.filter((s) => s.id !== input.segment_id);
        return null;
      },
    });
    const store = createContactsStore(api);
    await store.getState().load(1);
    expect(store.getState().segments?.map((s) => s.id)).toEqual([1, 2]);
    store.getState().setSearch('sh');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().segments?.map((s) => s.id)).toEqual([2]);
    store.getState().setSearch('');
    expect(await store.getState().rename(1, 'باشگاه')).toBe(true);
    expect(store.getState().segments?.[0]?.name).toBe('باشگاه');
    expect(await store.getState().remove(2)).toBe(true);
    expect(store.getState().segments?.map((s) => s.id)).toEqual([1]);
    expect(
      transport.calls
        .filter((c) => c.channel === 'segments:list')
        .every((c) => (c.input as { account_id: number }).account_id === 1),
    ).toBe(true);
  });

  it('turns a refusal into its error, shown once', async () => {
    const { api } = fakeApi({
      'segments:list': () => [segment(1, 'club')],
      'segments:combineCount': () => {
        throw Object.assign(new Error('segment 3 is importing, not ready'), { code: 400 });
      },
    });
    const store = createContactsStore(api);
    await store.getState().load(1);
    expect(await store.getState().combineCount([1, 3], [])).toBeNull();
    expect(store.getState().error).toContain('not ready');
    expect(await store.getState().combineCount([], [])).toBe(0);
  });

  it('combines after counting, and lists the new segment', async () => {
    let segments = [segment(1, 'club'), segment(2, 'shop')];
    const { api, transport } = fakeApi({
      'segments:list': () => segments,
      'segments:combineCount': (input) => ({ count: (input.exclude ?? []).length === 0 ? 6 : 2 }),
      'segments:combine': (input) => {
        segments = [...segments, { ...segment(3, input.name), status: 'importing' }];
        return { job_id: 9, segment_id: 3 };
      },
    });
    const store = createContactsStore(api);
    await store.getState().load(1);
    expect(await store.getState().combineCount([1, 2], [])).toBe(6);
    expect(await store.getState().combineCount([1], [2])).toBe(2);
    expect(await store.getState().combine('همه', [1, 2], [])).toBe(3);
    expect(store.getState().segments?.find((s) => s.id === 3)?.status).toBe('importing');
    expect(transport.calls.find((c) => c.channel === 'segments:combine')?.input).toMatchObject({
      account_id: 1,
      name: 'همه',
      include: [1, 2],
      exclude: [],
    });
  });

  it('reads members and opt-outs by page, with the search only when there is one', async () => {
    const { api, transport } = fakeApi({
      'segments:members': (input) => ({
        total: 1_000_000,
        members: [{ phone: `0912${String(input.offset).padStart(7, '0')}`, fields: {}, opted_out: false }],
      }),
      'optouts:list': () => ({ total: 0, items: [] }),
    });
    const store = createContactsStore(api);
    expect(await store.getState().members(4, 0, 200)).toBeNull(); // no account yet
    await store.getState().load(1);
    const page = await store.getState().members(4, 999_800, 200);
    expect(page?.members[0]?.phone).toBe('09120999800');
    await store.getState().members(4, 0, 200, '۰۹۱۲');
    await store.getState().optOutsPage(0, 200);
    const inputs = transport.calls.filter((c) => c.channel !== 'segments:list').map((c) => c.input);
    expect(inputs).toEqual([
      { account_id: 1, segment_id: 4, offset: 999_800, limit: 200 },
      { account_id: 1, segment_id: 4, offset: 0, limit: 200, search: '۰۹۱۲' },
      { account_id: 1, offset: 0, limit: 200 },
    ]);
  });

  it('adds pasted numbers in batches, keeps the invalid ones, and moves the list on', async () => {
    const listed = new Set<string>();
    const { api, transport } = fakeApi({
      'segments:list': () => [],
      'optouts:add': (input) => {
        const invalid = input.phones.filter((p) => !/^0?9\d{9}$/.test(p));
        const valid = input.phones.filter((p) => !invalid.includes(p) && !listed.has(p));
        valid.forEach((p) => listed.add(p));
        return { added: valid.length, invalid };
      },
      'optouts:remove': (input) => ({ removed: input.phones.filter((p) => listed.delete(p)).length }),
    });
    const store = createContactsStore(api);
    await store.getState().load(1);
    const many = Array.from({ length: OPT_OUT_BATCH + 5 }, (_, i) => `09${String(100_000_000 + i)}`);
    expect(await store.getState().addOptOuts(`${many.join('\n')}\nnot-a-number، 12345`)).toBe(OPT_OUT_BATCH + 5);
    expect(transport.calls.filter((c) => c.channel === 'optouts:add')).toHaveLength(2);
    expect(store.getState().optOuts).toMatchObject({ version: 1, invalid: ['not-a-number', '12345'] });
    expect(await store.getState().removeOptOuts(`${many[0]}, ${many[1]}`)).toBe(2);
    expect(store.getState().optOuts).toMatchObject({ version: 2, invalid: [] });
    expect(await store.getState().addOptOuts('  \n ,')).toBe(0);
    expect(store.getState().optOuts.version).toBe(2);
  });

  it('follows its opt-out file to the end, even when the job ends before its start answers', async () => {
    const push = (status: PayloadOf<'import:progress'>['status'], rows: number): PayloadOf<'import:progress'> => ({
      job_id: 7,
      kind: 'optouts',
      segment_id: null,
      upload_id: null,
      status,
      rows,
      fraction: status === 'done' ? 1 : 0.5,
      valid: rows - 1,
      invalid: 1,
      duplicates: 0,
      opted_out: 0,
      error: null,
    });
    // The service's state as imports:get reads it: a moment behind the pushes.
    const stale = jobView({ job_id: 7, status: 'running', rows: 3, fraction: 0.5, valid: 2, invalid: 1 });
    const { api, transport } = fakeApi({
      'segments:list': () => [],
      'optouts:import': () => {
        transport.emit('import:progress', push('running', 3));
        transport.emit('import:progress', push('done', 6));
        return { job_id: 7 };
      },
      'imports:get': () => stale,
    });
    const store = createContactsStore(api);
    api.on('import:progress', (progress) => store.getState().followOptOuts(progress));
    await store.getState().load(1);
    expect(await store.getState().importOptOuts(new File(['09121111111\n'], 'numbers.csv'))).toBe(true);
    expect(transport.calls.find((c) => c.channel === 'optouts:import')?.input).toEqual({
      account_id: 1,
      file: 'numbers.csv',
    });
    expect(store.getState().optOuts.job).toMatchObject({ job_id: 7, status: 'done', valid: 5, invalid: 1 });
    expect(store.getState().optOuts.version).toBe(1);
    // Another kind of job, or a later push of an ended one, changes nothing.
    store.getState().followOptOuts({ ...push('running', 2), kind: 'import', job_id: 8 });
    store.getState().followOptOuts(push('running', 2));
    expect(store.getState().optOuts.job?.status).toBe('done');
    store.getState().dismissOptOutJob();
    expect(store.getState().optOuts.job).toBeNull();
  });

  it('reaches the end of an opt-out file whose pushes were lost', async () => {
    const { api } = fakeApi({
      'segments:list': () => [],
      'optouts:import': () => ({ job_id: 3 }),
      'imports:get': () => jobView({ job_id: 3, status: 'failed', error: 'ستون شماره موبایل پیدا نشد' }),
    });
    const store = createContactsStore(api);
    await store.getState().load(1);
    await store.getState().importOptOuts(new File([''], 'empty.csv'));
    expect(store.getState().optOuts.job).toMatchObject({ status: 'failed', error: 'ستون شماره موبایل پیدا نشد' });
    expect(store.getState().optOuts.version).toBe(0);
    // A new account starts with nothing of the old one's list.
    await store.getState().load(2);
    expect(store.getState().optOuts).toEqual({ version: 0, invalid: [], job: null });
  });
});
