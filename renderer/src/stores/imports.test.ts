import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_INTERVAL_MS, STALL_MS, cleanFieldName, createImportsStore, mappingProblems, pace } from './imports';
import { fakeApi, importJob as job, importProgress as progress } from '../test/fakes';
import type { OutputOf } from '../../../shared/ipc';

const preview = (overrides: Partial<OutputOf<'imports:preview'>> = {}): OutputOf<'imports:preview'> => ({
  file_name: 'customers.csv',
  file_bytes: 100,
  format: 'csv',
  sheets: [],
  sheet: null,
  encoding: 'utf-8',
  delimiter: ',',
  header_row: 1,
  columns: ['NAME', 'MOBILE', 'CITY'],
  phone_column: 1,
  rows: [
    { row: 1, cells: ['name', 'mobile', 'city'] },
    { row: 2, cells: ['Sara', '09120000001', 'Tehran'] },
  ],
  remembered: null,
  ...overrides,
});

describe('the mapping rules', () => {
  it('names fields in upper case with letters, digits and underscores', () => {
    expect(cleanFieldName(' first name ')).toBe('FIRST_NAME');
    expect(cleanFieldName('نام خانوادگی')).toBe('نام_خانوادگی');
    expect(cleanFieldName('e-mail!')).toBe('E_MAIL');
  });

  it('asks for a phone column and refuses clashing or empty names', () => {
    expect(mappingProblems(['field', 'field'], ['A', 'B'])).toEqual({ noPhone: true, badNames: [], clashes: [] });
    expect(mappingProblems(['phone', 'field', 'field'], ['X', 'CITY', 'CITY']).clashes).toEqual([1, 2]);
    expect(mappingProblems(['phone', 'field', 'skip'], ['X', '', 'CITY']).badNames).toEqual([1]);
    // A skipped column's name does not matter.
    expect(mappingProblems(['phone', 'field', 'skip'], ['X', 'CITY', 'CITY'])).toEqual({
      noPhone: false,
      badNames: [],
      clashes: [],
    });
  });

  it('measures rows per second and the time left from the last seconds of progress', () => {
    expect(pace([{ at: 0, rows: 0, fraction: 0 }])).toEqual({ rowsPerSecond: null, secondsLeft: null });
    expect(
      pace([
        { at: 0, rows: 0, fraction: 0 },
        { at: 2_000, rows: 400_000, fraction: 0.4 },
      ]),
    ).toMatchObject({ rowsPerSecond: 200_000, secondsLeft: expect.closeTo(3, 6) });
  });
});

describe('imports store', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens a file, previews it, applies the remembered mapping, starts and follows the run to its review', async () => {
    const remembered = { phone: 1, columns: [{ index: 2, name: 'TOWN' }] };
    const { api, transport } = fakeApi({
      'imports:preview': () => preview({ remembered }),
      'imports:start': () => ({ job_id: 9, segment_id: 4 }),
      'imports:get': () => job({ status: 'done', valid: 1, fraction: 1 }),
    });
    const store = createImportsStore(api);
    store.getState().setAccount(1);
    await store.getState().openFile(new File(['x'], 'customers.csv'));
    expect(store.getState()).toMatchObject({
      step: 'layout',
      roles: ['skip', 'phone', 'field'],
      names: ['NAME', 'MOBILE', 'TOWN'],
      remembered: true,
      target: { kind: 'new', name: 'customers' },
    });
    await store.getState().setChoice({ delimiter: ';' });
    expect(transport.calls.at(-1)).toEqual({
      channel: 'imports:preview',
      input: { account_id: 1, file: 'customers.csv', delimiter: ';' },
    });
    // A name as it is typed: upper case, a space becomes _ at once.
    store.getState().setName(2, 'town ');
    expect(store.getState().names[2]).toBe('TOWN_');
    store.getState().setName(2, 'town');
    store.getState().setRole(0, 'phone');
    // One phone column: the old one becomes a field.
    expect(store.getState().roles).toEqual(['phone', 'field', 'field']);
    store.getState().setRole(1, 'skip');
    await store.getState().start();
    expect(transport.calls.find((call) => call.channel === 'imports:start')?.input).toEqual({
      account_id: 1,
      file: 'customers.csv',
      delimiter: ';',
      mapping: { phone: 0, columns: [{ index: 2, name: 'TOWN' }] },
      name: 'customers',
    });
    // imports:get said done at once: straight to the review.
    expect(store.getState().step).toBe('review');
  });

  it('follows progress pushes of its own job only, then reads the final counts', async () => {
    let final = false;
    const { api } = fakeApi({
      'imports:preview': () => preview(),
      'imports:start': () => ({ job_id: 9, segment_id: 4 }),
      'imports:get': () => (final ? job({ status: 'cancelled' }) : job()),
    });
    const store = createImportsStore(api);
    store.getState().setAccount(1);
    await store.getState().openFile(new File(['x'], 'c.csv'));
    await store.getState().start();
    expect(store.getState().step).toBe('running');
    store.getState().follow(progress({ job_id: 8, rows: 50 }));
    expect(store.getState().job?.rows).toBe(0);
    store.getState().follow(progress({ rows: 500, fraction: 0.5, valid: 490 }));
    expect(store.getState().job).toMatchObject({ rows: 500, fraction: 0.5, valid: 490 });
    final = true;
    store.getState().follow(progress({ status: 'cancelled' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState()).toMatchObject({ step: 'review', job: { status: 'cancelled' } });
  });

  it('shows a burst of progress pushes at most every PROGRESS_INTERVAL_MS, the newest winning, an ending at once', async () => {
    vi.useFakeTimers();
    const { api } = fakeApi({
      'imports:preview': () => preview(),
      'imports:start': () => ({ job_id: 9, segment_id: 4 }),
      'imports:get': () => job({ status: 'running' }),
    });
    const store = createImportsStore(api);
    store.getState().setAccount(1);
    await store.getState().openFile(new File(['x'], 'c.csv'));
    await store.getState().start();
    let updates = 0;
    store.subscribe((state, previous) => state.job !== previous.job && updates++);
    store.getState().follow(progress({ rows: 100 }));
    for (let rows = 200; rows <= 5_000; rows += 100) store.getState().follow(progress({ rows }));
    // The first at once; the 49 after it wait for one update with the newest.
    expect(updates).toBe(1);
    expect(store.getState().job?.rows).toBe(100);
    await vi.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS);
    expect(updates).toBe(2);
    expect(store.getState().job?.rows).toBe(5_000);
    store.getState().follow(progress({ rows: 5_100 }));
    store.getState().follow(progress({ rows: 6_000, status: 'done', valid: 6_000 }));
    expect(store.getState().job).toMatchObject({ rows: 6_000, status: 'done' });
    // The waiting push is dropped: nothing older comes after the ending.
    await vi.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS * 2);
    expect(store.getState().job?.rows).not.toBe(5_100);
  });

  it('cancels: busy until the ending arrives, then the review says it was cancelled', async () => {
    let status: 'running' | 'cancelled' = 'running';
    const { api, transport } = fakeApi({
      'imports:preview': () => preview(),
      'imports:start': () => ({ job_id: 9, segment_id: 4 }),
      'imports:get': () => job({ status }),
      'imports:cancel': () => ({ cancelled: true }),
    });
    const store = createImportsStore(api);
    store.getState().setAccount(1);
    await store.getState().openFile(new File(['x'], 'c.csv'));
    await store.getState().start();
    await store.getState().cancel();
    expect(transport.calls.at(-1)).toEqual({ channel: 'imports:cancel', input: { account_id: 1, job_id: 9 } });
    expect(store.getState()).toMatchObject({ step: 'running', cancelling: true });
    status = 'cancelled';
    store.getState().follow(progress({ status: 'cancelled' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState()).toMatchObject({ step: 'review', cancelling: false, job: { status: 'cancelled' } });
  });

  it('shows the running import again after a reload, and begin() keeps it', async () => {
    const { api } = fakeApi({
      'imports:list': () => [
        job({ job_id: 12, kind: 'combine', status: 'running' }),
        job({ job_id: 11, status: 'running', rows: 40_000, fraction: 0.4, file_name: 'big.csv' }),
        job({ job_id: 10, status: 'done' }),
      ],
    });
    const store = createImportsStore(api);
    store.getState().setAccount(1);
    await store.getState().resume();
    expect(store.getState()).toMatchObject({
      step: 'running',
      job: { job_id: 11, rows: 40_000 },
      source: { name: 'big.csv' },
    });
    store.getState().begin();
    expect(store.getState().step).toBe('running');
  });

  it('does not miss an ending pushed before imports:start answered, nor one never heard', async () => {
    let calls = 0;
    const store = createImportsStore(
      fakeApi({
        'imports:preview': () => preview(),
        'imports:start': () => ({ job_id: 9, segment_id: 4 }),
        'imports:get': () => {
          // A small file: done before the window knew the job's id.
          if (calls++ === 0) store.getState().follow(progress({ status: 'done', rows: 2, valid: 1 }));
          return calls === 1 ? job({ status: 'running' }) : job({ status: 'done', valid: 1 });
        },
      }).api,
    );
    store.getState().setAccount(1);
    await store.getState().openFile(new File(['x'], 'c.csv'));
    await store.getState().start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState()).toMatchObject({ step: 'review', job: { status: 'done', valid: 1 } });

    vi.useFakeTimers();
    let status: 'running' | 'done' = 'running';
    const quiet = createImportsStore(
      fakeApi({
        'imports:preview': () => preview(),
        'imports:start': () => ({ job_id: 9, segment_id: 4 }),
        'imports:get': () => job({ status, valid: status === 'done' ? 5 : 0 }),
      }).api,
    );
    quiet.getState().setAccount(1);
    await quiet.getState().openFile(new File(['x'], 'c.csv'));
    await quiet.getState().start();
    await vi.advanceTimersByTimeAsync(STALL_MS);
    expect(quiet.getState().step).toBe('running');
    // Its ending push was lost (a reconnect): the next look at the record finds it.
    status = 'done';
    await vi.advanceTimersByTimeAsync(STALL_MS);
    expect(quiet.getState()).toMatchObject({ step: 'review', job: { status: 'done', valid: 5 } });
  });

  it('says which file problem it met, by its code', async () => {
    const { api } = fakeApi({
      'imports:preview': () => {
        throw Object.assign(new Error('bad'), { code: 400, detail: 'فایل با گذرواژه محافظت شده است (encrypted)' });
      },
    });
    const store = createImportsStore(api);
    store.getState().setAccount(1);
    await store.getState().openFile(new File(['x'], 'locked.xlsx'));
    expect(store.getState()).toMatchObject({ step: 'file', error: { code: 'encrypted' } });
  });

  it('keeps an existing segment as the destination when a file is opened for it', async () => {
    const { api } = fakeApi({ 'imports:preview': () => preview() });
    const store = createImportsStore(api);
    store.getState().setAccount(1);
    store.getState().setTarget({ kind: 'existing', segmentId: 7 });
    await store.getState().openFile(new File(['x'], 'more.csv'));
    expect(store.getState().target).toEqual({ kind: 'existing', segmentId: 7 });
  });
});
