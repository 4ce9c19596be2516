// Backup (an online copy of the whole workspace) and restore (the current data is itself backed
// up first, never deleted).
import { Alert, Button, Code, Group, Modal, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconDatabaseExport, IconDatabaseImport } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';

export function BackupSettings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { settings } = useStores();
  const { busy, lastBackup, backups, restoredFrom, backup, restore, loadBackups } = useStore(
    settings,
    useShallow((s) => ({
      busy: s.busy,
      lastBackup: s.lastBackup,
      backups: s.backups,
      restoredFrom: s.restoredFrom,
      backup: s.backup,
      restore: s.restore,
      loadBackups: s.loadBackups,
    })),
  );
  useEffect(() => {
    void loadBackups();
  }, [loadBackups]);
  const [path, setPath] = useState('');
  const [confirming, setConfirming] = useState(false);
  return (
    <Stack maw={720}>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.backup.create')}</Text>
          <Text size="sm" c="dimmed">
            {t('settings.backup.createHint')}
          </Text>
          <Group>
            <Button
              leftSection={<IconDatabaseExport size={16} />}
              loading={busy}
              onClick={async () => {
                const made = await backup();
                if (made) setPath(made.path);
              }}
              data-testid="backup-create"
            >
              {t('settings.backup.create')}
            </Button>
          </Group>
          {lastBackup ? (
            <Alert color="teal" data-testid="backup-done">
              {t('settings.backup.done', {
                size: formatNumber(Math.ceil(lastBackup.bytes / 1024), language),
                date: formatDateTime(lastBackup.created_at, language),
              })}
              <Code block mt={4} className="ltr-value">
                {lastBackup.path}
              </Code>
            </Alert>
          ) : null}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.backup.restore')}</Text>
          <Text size="sm" c="dimmed">
            {t('settings.backup.restoreHint')}
          </Text>
          {backups.length > 0 ? (
            <Select
              label={t('settings.backup.pick')}
              placeholder={t('settings.backup.pickPlaceholder')}
              data={backups.map((b) => ({
                value: b.path,
                label: `${formatDateTime(b.created_at, language)} · ${t('settings.backup.size', { n: formatNumber(Math.ceil(b.bytes / 1024), language) })}`,
              }))}
              value={backups.some((b) => b.path === path) ? path : null}
              onChange={(value) => value && setPath(value)}
              data-testid="restore-pick"
            />
          ) : null}
          <Group align="end">
            <TextInput
              label={t('settings.backup.path')}
              value={path}
              onChange={(event) => setPath(event.currentTarget.value)}
              dir="ltr"
              style={{ flex: 1 }}
              data-testid="restore-path"
            />
            <Button
              color="orange"
              leftSection={<IconDatabaseImport size={16} />}
              disabled={!path.trim()}
              loading={busy}
              onClick={() => setConfirming(true)}
              data-testid="restore-start"
            >
              {t('settings.backup.restore')}
            </Button>
          </Group>
          {restoredFrom ? (
            <Alert color="teal" data-testid="restore-done">
              {t('settings.backup.restored')}
            </Alert>
          ) : null}
        </Stack>
      </Paper>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('settings.backup.restoreTitle')}>
        <Stack>
          <Text size="sm">{t('settings.backup.restoreWarning')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="orange"
              onClick={async () => {
                setConfirming(false);
                // Everything on screen came from the old data: read it all again.
                if (await restore(path.trim())) window.location.reload();
              }}
              data-testid="restore-confirm"
            >
              {t('settings.backup.restore')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
