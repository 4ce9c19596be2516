// The workspace store: it reads the size and the setting, saves the setting, previews it, exports
// the previewed messages through the Messages export (every account, before the cut-off), applies
// the preview it shows (its cut-off), follows the run until it ends and then reads the size again,
// and compacts; a refusal is the form's sentence.
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceStore } from './workspace';
import { fakeApi, fakeWorkspace, until } from '../test/fakes';
import { i18n, resources } from '../i18n';
import { refusalText } from './errors';

beforeAll(async () => {
  await i18n.init({ resources, lng: 'en', fallbackLng: false, interpolation: { escapeValue: false } });
});

const calls = (transport: { calls: Array<{ channel: string; input: unknown }> }, channel: string) =>
  transport.calls.filter((call) => call.channel === channel);

describe('workspace store', () => {
  it('loads the size and the setting, and saves the setting', async () => {
    const fake = fakeWorkspace();
    const { api } = fakeApi(fake.handlers);
    const store = createWorkspaceStore(api, 1);
    await store.getState().load();
    expect(store.getState().size?.messages).toBe(120_000);
    expect(store.getState().retention).toEqual({ months: null, action: 'archive', automatic: false, run: null });
    expect(await store.getState().save(6, 'delete')).toBeNull();
    expect(store.getState().retention).toMatchObject({ months: 6, action: 'delete', automatic: false });
  });

  it('previews, exports what would go first, applies the preview it shows and follows the run', async () => {
    const fake = fakeWorkspace({ old: 2500, runReads: 2 });
    const { api, transport } = fakeApi(fake.handlers);
    const store = createWorkspaceStore(api, 1);
    await store.getState().load();
    expect(await store.getState().previewRetention(12, 'archive')).toBeNull();
    const preview = store.getState().preview!;
    expect(preview).toMatchObject({ months: 12, messages: 2500 });

    const exported = await store.getState().exportPreviewed('csv', { language: 'fa', time_zone: 'Asia/Tehran' });
    expect(exported).toMatchObject({ rows: 2500, file_name: 'messages.csv' });
    // The Messages export itself: every account, created before the cut-off.
    expect(calls(transport, 'messages:export').at(-1)!.input).toEqual({
      to: preview.cutoff,
      format: 'csv',
      language: 'fa',
      time_zone: 'Asia/Tehran',
    });

    expect(await store.getState().apply()).toBeNull();
    expect(calls(transport, 'workspace:applyRetention').at(-1)!.input).toEqual({
      months: 12,
      action: 'archive',
      cutoff: preview.cutoff,
    });
    expect(store.getState().preview).toBeNull();
    expect(store.getState().retention?.run?.state).toBe('running');
    const done = await until(store, (s) => s.retention?.run?.state === 'done' && s.size?.messages === 117_500);
    expect(done.retention).toMatchObject({ months: 12, automatic: true, run: { removed: 2500 } });
    expect(calls(transport, 'workspace:retention').length).toBeGreaterThanOrEqual(3);
    store.getState().stop();
  });

  it('answers a refusal to the form, and applies nothing without a preview', async () => {
    const fake = fakeWorkspace();
    const { api, transport } = fakeApi({
      ...fake.handlers,
      'workspace:applyRetention': () => {
        throw { code: 400, message: 'bad', reason: 'retention_running' };
      },
    });
    const store = createWorkspaceStore(api, 1);
    expect(await store.getState().apply()).toBeNull();
    expect(calls(transport, 'workspace:applyRetention')).toEqual([]);
    await store.getState().previewRetention(3, 'delete');
    const why = await store.getState().apply();
    // The reason's sentence (the code's until the errors block has one).
    expect(why).toBe(refusalText({ code: 400, reason: 'retention_running' }));
    expect(store.getState().applying).toBe(false);
    expect(store.getState().preview).not.toBeNull();
  });

  it('compacts and keeps what it gave back', async () => {
    const fake = fakeWorkspace({ size: { free_bytes: 3_145_728 } });
    const { api } = fakeApi(fake.handlers);
    const store = createWorkspaceStore(api, 1);
    await store.getState().load();
    expect(await store.getState().compact()).toBeNull();
    expect(store.getState().compacted).toEqual({ freed_bytes: 3_145_728, took_ms: 1200 });
    expect(store.getState().size).toMatchObject({ free_bytes: 0, compacted_at: Date.UTC(2025, 11, 2) });
  });
});
