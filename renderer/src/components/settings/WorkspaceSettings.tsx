// The workspace tab: how big the workspace is (by part, with its messages and when the database was
// last looked after), "Compact now" behind a confirmation that says the app waits meanwhile, the
// archive files, and the retention setting: months and archive or delete, saved; a preview of what
// applying it removes, which can be exported first (the Messages export); applying is confirmed by
// naming the count, and the run is followed until it ends.
import {
  Alert,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArchive, IconDatabaseCog, IconEye, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { RetentionAction, RetentionPreview, WorkspaceSize } from '../../stores/workspace';
import {
  counted,
  formatBytes,
  formatDate,
  formatDateTime,
  formatDuration,
  formatNumber,
  isolate,
} from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { NumberField } from '../NumberField';
import { FileExportButtons } from '../FileExportButtons';
import { MAX_RETENTION_MONTHS } from '../../../../shared/ipc/contracts/workspace';

/** The size's parts in the order they are listed; the database always shows, the others when they hold something. */
const PARTS = ['database', 'free', 'wal', 'files', 'archive', 'backups', 'exports', 'other'] as const;
type Part = (typeof PARTS)[number];
const partBytes = (size: WorkspaceSize, part: Part): number =>
  part === 'free' ? size.free_bytes : size[`${part}_bytes`];

export function WorkspaceSettings() {
  const { workspace } = useStores();
  const { load, stop } = useStore(
    workspace,
    useShallow((s) => ({ load: s.load, stop: s.stop })),
  );
  useEffect(() => {
    void load();
    return stop;
  }, [load, stop]);
  return (
    <Stack maw={820} data-testid="settings-workspace">
      <SizePanel />
      <RetentionPanel />
    </Stack>
  );
}

function SizePanel() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { workspace, settings, session } = useStores();
  const desktop = useStore(session, (s) => s.settings?.mode === 'desktop');
  const reveal = useStore(settings, (s) => s.reveal);
  const { size, compacting, compacted, refreshSize, compact } = useStore(
    workspace,
    useShallow((s) => ({
      size: s.size,
      compacting: s.compacting,
      compacted: s.compacted,
      refreshSize: s.refreshSize,
      compact: s.compact,
    })),
  );
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const when = (at: number | null) => (at === null ? t('workspace.size.never') : formatDateTime(at, language));
  return (
    <Paper withBorder p="md" data-testid="workspace-size">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={4}>{t('workspace.size.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('workspace.size.hint')}
            </Text>
          </div>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconRefresh size={14} />}
            onClick={() => void refreshSize()}
            data-testid="workspace-refresh"
          >
            {t('workspace.size.refresh')}
          </Button>
        </Group>
        {size ? (
          <>
            <Group align="baseline" gap="md">
              <Text fz={28} fw={700} data-testid="workspace-total">
                {formatBytes(size.total_bytes, language)}
              </Text>
              <Text c="dimmed" data-testid="workspace-messages">
                {t('workspace.size.messages', counted(size.messages, language))}
              </Text>
            </Group>
            <Table data-testid="workspace-parts">
              <Table.Tbody>
                {PARTS.filter((part) => part === 'database' || partBytes(size, part) > 0).map((part) => (
                  <Table.Tr key={part} data-testid={`workspace-part-${part}`}>
                    <Table.Td>{t(`workspace.size.parts.${part}`)}</Table.Td>
                    <Table.Td ta="end">{formatBytes(partBytes(size, part), language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group gap="lg">
              <Text size="sm" data-testid="workspace-optimized">
                {t('workspace.size.optimized')}: {when(size.optimized_at)}
              </Text>
              <Text size="sm">
                {t('workspace.size.vacuumed')}: {when(size.vacuumed_at)}
              </Text>
              <Text size="sm" data-testid="workspace-compacted">
                {t('workspace.size.compacted')}: {when(size.compacted_at)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed">
              {size.incremental ? t('workspace.size.upkeepHint') : t('workspace.size.notIncremental')}
            </Text>
            <Group>
              <Button
                variant="default"
                leftSection={<IconDatabaseCog size={16} />}
                loading={compacting}
                onClick={() => setConfirming(true)}
                data-testid="workspace-compact"
              >
                {t('workspace.compact.button')}
              </Button>
            </Group>
            {compacted ? (
              <Alert color="teal" data-testid="workspace-compacted-done">
                {t('workspace.compact.done', {
                  time: formatDuration(compacted.took_ms / 1000, language),
                  size: formatBytes(compacted.freed_bytes, language),
                })}
              </Alert>
            ) : null}
            {refusal ? (
              <Alert color="red" data-testid="workspace-compact-refused">
                {refusal}
              </Alert>
            ) : null}
            {size.archives.length > 0 ? (
              <Stack gap={4} data-testid="workspace-archives">
                <Text fw={600}>{t('workspace.archives.title')}</Text>
                <Text size="sm" c="dimmed">
                  {t('workspace.archives.hint')}
                </Text>
                {size.archives.map((archive) => (
                  <Group key={archive.name} justify="space-between" data-testid="workspace-archive">
                    <Text size="sm" className="ltr-value">
                      {archive.name}
                    </Text>
                    <Text size="sm">{formatBytes(archive.bytes, language)}</Text>
                  </Group>
                ))}
                {desktop && size.archive_dir ? (
                  <Group gap="xs">
                    <Code className="ltr-value">{size.archive_dir}</Code>
                    <Button size="xs" variant="subtle" onClick={() => void reveal(size.archive_dir!)}>
                      {t('workspace.archives.reveal')}
                    </Button>
                  </Group>
                ) : null}
              </Stack>
            ) : null}
          </>
        ) : null}
      </Stack>
      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('workspace.compact.title')}
      >
        <Stack>
          <Text size="sm">{t('workspace.compact.text')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              onClick={async () => {
                setConfirming(false);
                setRefusal(await compact());
              }}
              data-testid="workspace-compact-confirm"
            >
              {t('workspace.compact.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

function RetentionPanel() {
  const setting = useStore(
    useStores().workspace,
    useShallow((s) => (s.retention ? { months: s.retention.months, action: s.retention.action } : null)),
  );
  // Drawn once the setting is read; the form keeps what the person types from then on.
  return setting ? <RetentionForm setting={setting} /> : null;
}

function RetentionForm({ setting }: { setting: { months: number | null; action: RetentionAction } }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { workspace } = useStores();
  const state = useStore(
    workspace,
    useShallow((s) => ({
      retention: s.retention,
      preview: s.preview,
      previewing: s.previewing,
      saving: s.saving,
      applying: s.applying,
      save: s.save,
      previewRetention: s.previewRetention,
      clearPreview: s.clearPreview,
      apply: s.apply,
      exportPreviewed: s.exportPreviewed,
    })),
  );
  const { retention, preview } = state;
  // The form starts from the stored setting (RetentionPanel renders it once that is read).
  const [enabled, setEnabled] = useState(setting.months !== null);
  const [months, setMonths] = useState<number | ''>(setting.months ?? 12);
  const [action, setAction] = useState<RetentionAction>(setting.action);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const validMonths = months !== '' && Number.isInteger(months) && months >= 1 && months <= MAX_RETENTION_MONTHS;
  const running = retention?.run?.state === 'running';
  const changed = () => {
    state.clearPreview();
    setRefusal(null);
  };
  const status = !retention
    ? null
    : retention.months === null
      ? t('workspace.retention.off')
      : retention.automatic
        ? t('workspace.retention.automatic')
        : t('workspace.retention.notApplied');

  return (
    <Paper withBorder p="md" data-testid="workspace-retention">
      <Stack gap="sm">
        <div>
          <Title order={4}>{t('workspace.retention.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('workspace.retention.hint')}
          </Text>
        </div>
        <Switch
          label={t('workspace.retention.enabled')}
          checked={enabled}
          onChange={(event) => {
            setEnabled(event.currentTarget.checked);
            changed();
          }}
          data-testid="retention-enabled"
        />
        {enabled ? (
          <Group align="end">
            <NumberField
              label={t('workspace.retention.months')}
              value={months}
              min={1}
              max={MAX_RETENTION_MONTHS}
              w={140}
              rightSection={
                <Text size="xs" c="dimmed" pe={6}>
                  {t('workspace.retention.monthsSuffix')}
                </Text>
              }
              rightSectionWidth={48}
              onChange={(next) => {
                setMonths(next);
                changed();
              }}
              data-testid="retention-months"
            />
            <SegmentedControl
              value={action}
              onChange={(value) => {
                setAction(value as RetentionAction);
                changed();
              }}
              data={[
                { value: 'archive', label: t('workspace.retention.actions.archive') },
                { value: 'delete', label: t('workspace.retention.actions.delete') },
              ]}
              data-testid="retention-action"
            />
          </Group>
        ) : null}
        {enabled ? (
          <Text size="sm" c={action === 'delete' ? 'red' : 'dimmed'}>
            {action === 'archive' ? t('workspace.retention.archiveHint') : t('workspace.retention.deleteHint')}
          </Text>
        ) : null}
        <Group>
          <Button
            variant="default"
            loading={state.saving}
            disabled={enabled && !validMonths}
            onClick={async () => {
              const why = await state.save(enabled && validMonths ? months : null, action);
              setRefusal(why);
              if (!why) notifications.show({ color: 'teal', message: t('workspace.retention.saved') });
            }}
            data-testid="retention-save"
          >
            {t('workspace.retention.save')}
          </Button>
          {enabled ? (
            <Button
              variant="light"
              leftSection={<IconEye size={16} />}
              loading={state.previewing}
              disabled={!validMonths || running}
              onClick={async () => setRefusal(validMonths ? await state.previewRetention(months, action) : null)}
              data-testid="retention-preview"
            >
              {t('workspace.retention.preview')}
            </Button>
          ) : null}
          {status ? (
            <Text size="sm" fw={500} c={retention?.automatic ? 'teal' : 'dimmed'} data-testid="retention-status">
              {status}
            </Text>
          ) : null}
        </Group>
        {refusal ? (
          <Alert color="red" data-testid="retention-refused">
            {refusal}
          </Alert>
        ) : null}
        {preview && enabled ? (
          <PreviewCard
            preview={preview}
            applying={state.applying}
            onExport={state.exportPreviewed}
            onApply={() => setConfirming(true)}
          />
        ) : null}
        <RunStatus />
      </Stack>
      {preview ? (
        <Modal
          closeButtonProps={{ 'aria-label': t('common.close') }}
          opened={confirming}
          onClose={() => setConfirming(false)}
          title={t(
            preview.action === 'archive'
              ? 'workspace.retention.confirmArchiveTitle'
              : 'workspace.retention.confirmDeleteTitle',
            counted(preview.messages, language),
          )}
        >
          <Stack>
            <Text size="sm" data-testid="retention-confirm-text">
              {t(
                preview.action === 'archive'
                  ? 'workspace.retention.confirmArchive'
                  : 'workspace.retention.confirmDelete',
                {
                  ...counted(preview.messages, language),
                  date: formatDate(preview.cutoff, language),
                  months: formatNumber(preview.months, language),
                },
              )}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </Button>
              <Button
                color={preview.action === 'delete' ? 'red' : undefined}
                leftSection={preview.action === 'delete' ? <IconTrash size={16} /> : <IconArchive size={16} />}
                onClick={async () => {
                  setConfirming(false);
                  setRefusal(await state.apply());
                }}
                data-testid="retention-confirm"
              >
                {t(
                  preview.action === 'archive'
                    ? 'workspace.retention.confirmArchiveButton'
                    : 'workspace.retention.confirmDeleteButton',
                  counted(preview.messages, language),
                )}
              </Button>
            </Group>
          </Stack>
        </Modal>
      ) : null}
    </Paper>
  );
}

function PreviewCard({
  preview,
  applying,
  onExport,
  onApply,
}: {
  preview: RetentionPreview;
  applying: boolean;
  onExport: Parameters<typeof FileExportButtons>[0]['run'];
  onApply(): void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const n = (value: number) => formatNumber(value, language);
  const date = formatDate(preview.cutoff, language);
  return (
    <Alert color={preview.action === 'delete' ? 'orange' : 'blue'} data-testid="retention-preview-result">
      <Stack gap="xs">
        <Text fw={600}>{t('workspace.retention.previewTitle', { date })}</Text>
        {preview.messages === 0 || preview.first_at === null || preview.last_at === null ? (
          <Text size="sm" data-testid="retention-preview-count">
            {t('workspace.retention.nothing', { date })}
          </Text>
        ) : (
          <Text size="sm" data-testid="retention-preview-count">
            {t(preview.action === 'archive' ? 'workspace.retention.wouldArchive' : 'workspace.retention.wouldDelete', {
              count: preview.messages,
              n: n(preview.messages),
              from: isolate(formatDate(preview.first_at, language)),
              to: isolate(formatDate(preview.last_at, language)),
            })}
          </Text>
        )}
        {preview.held > 0 ? (
          <Text size="sm" data-testid="retention-preview-held">
            {t('workspace.retention.held', { count: preview.held, n: n(preview.held) })}
          </Text>
        ) : null}
        {preview.campaign_messages > 0 ? (
          <Text size="sm" data-testid="retention-preview-campaigns">
            {t('workspace.retention.campaigns', { n: n(preview.campaign_messages) })}
          </Text>
        ) : null}
        {preview.messages > 0 ? (
          <Group justify="space-between">
            <FileExportButtons
              run={onExport}
              labels={{ csv: t('workspace.retention.exportCsv'), xlsx: t('workspace.retention.exportXlsx') }}
              title={t('workspace.retention.exportTitle')}
              testId="retention-export"
              size="xs"
              before={<Text size="sm">{t('workspace.retention.exportFirst')}:</Text>}
            />
            <Button
              color={preview.action === 'delete' ? 'red' : undefined}
              loading={applying}
              onClick={onApply}
              data-testid="retention-apply"
            >
              {t('workspace.retention.apply')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}

function RunStatus() {
  const { t } = useTranslation();
  const language = useLanguage();
  const run = useStore(useStores().workspace, (s) => s.retention?.run ?? null);
  if (!run) return null;
  const n = (value: number) => formatNumber(value, language);
  if (run.state === 'running')
    return (
      <Stack gap={4} data-testid="retention-run">
        <Text size="sm">{t('workspace.retention.running', { removed: n(run.removed), planned: n(run.planned) })}</Text>
        <Progress value={run.planned > 0 ? Math.min(100, (100 * run.removed) / run.planned) : 0} animated />
      </Stack>
    );
  const date = formatDateTime(run.finished_at ?? run.created_at, language);
  return (
    <Stack gap={2} data-testid="retention-run">
      {run.state === 'done' ? (
        <Text size="sm" data-testid="retention-run-done">
          {t(run.action === 'archive' ? 'workspace.retention.doneArchive' : 'workspace.retention.doneDelete', {
            date,
            count: run.removed,
            n: n(run.removed),
          })}
        </Text>
      ) : run.state === 'failed' ? (
        <Text size="sm" c="red">
          {t('workspace.retention.failed', { error: run.error ?? '' })}
        </Text>
      ) : (
        <Text size="sm">{t('workspace.retention.cancelled', { count: run.removed, n: n(run.removed) })}</Text>
      )}
      {run.held > 0 ? (
        <Text size="xs" c="dimmed">
          {t('workspace.retention.heldAfter', { n: n(run.held) })}
        </Text>
      ) : null}
    </Stack>
  );
}
