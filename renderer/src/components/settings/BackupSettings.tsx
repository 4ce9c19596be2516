// Backup (an online copy of the whole workspace) and restore (the current data is itself backed
// up first, never deleted). Desktop: the system's dialogs and file manager. Web: backups download
// to this computer, and a backup from this computer uploads to the server before restoring. After
// a restore the window reloads on the new data (this tab's address survives it) and says what was
// restored, and where the replaced data was kept.
import {
  Alert,
  Anchor,
  Button,
  Code,
  FileButton,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  IconCircleCheck,
  IconDatabaseExport,
  IconDatabaseImport,
  IconDownload,
  IconFolderOpen,
  IconUpload,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { Backup } from '../../stores/settings';
import { counted, formatBytes, formatDateTime, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { backupName } from '../../lib/names';

/** What a restore leaves for the reloaded window to say (session storage: this tab only, once). */
const RESTORED_KEY = 'chapar.settings.restored';
interface RestoredNote {
  from: string;
  safety: string;
  revokedKeys?: number;
}

function readRestoredNote(): RestoredNote | null {
  try {
    const stored = window.sessionStorage.getItem(RESTORED_KEY);
    return stored ? (JSON.parse(stored) as RestoredNote) : null;
  } catch {
    return null;
  }
}

function keepRestoredNote(note: RestoredNote | null): void {
  try {
    if (note) window.sessionStorage.setItem(RESTORED_KEY, JSON.stringify(note));
    else window.sessionStorage.removeItem(RESTORED_KEY);
  } catch {
    // Without session storage the reloaded page just says nothing.
  }
}

export function BackupSettings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { settings, session } = useStores();
  const desktop = useStore(session, (s) => s.settings?.mode === 'desktop');
  const store = useStore(
    settings,
    useShallow((s) => ({
      busy: s.busy,
      lastBackup: s.lastBackup,
      backups: s.backups,
      restoredFrom: s.restoredFrom,
      backup: s.backup,
      restore: s.restore,
      loadBackups: s.loadBackups,
      uploadBackup: s.uploadBackup,
      chooseFile: s.chooseFile,
      reveal: s.reveal,
    })),
  );
  const { loadBackups } = store;
  useEffect(() => {
    void loadBackups();
  }, [loadBackups]);
  const [path, setPath] = useState('');
  const [confirming, setConfirming] = useState(false);
  // Said once after the reload that follows a restore.
  const [restored, setRestored] = useState(readRestoredNote);
  useEffect(() => keepRestoredNote(null), []);
  const size = (b: Backup) => formatBytes(b.bytes, language);

  return (
    <Stack maw={820}>
      {restored ? (
        <Alert
          color="teal"
          icon={<IconCircleCheck size={18} />}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setRestored(null)}
          data-testid="restore-success"
        >
          <span title={restored.from}>
            {t('settings.backup.restoredFrom', {
              file: isolate(backupName(restored.from, language)),
              safety: isolate(backupName(restored.safety, language)),
            })}
          </span>
          {restored.revokedKeys ? (
            <Text size="sm" mt={4} data-testid="restore-revoked-keys">
              {t('settings.backup.keysRevoked', counted(restored.revokedKeys, language))}
            </Text>
          ) : null}
        </Alert>
      ) : null}
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.backup.create')}</Text>
          <Text size="sm" c="dimmed">
            {t('settings.backup.createHint')}
          </Text>
          <Group>
            <Button
              leftSection={<IconDatabaseExport size={16} />}
              loading={store.busy}
              onClick={async () => {
                const made = await store.backup();
                if (made) setPath(made.path);
              }}
              data-testid="backup-create"
            >
              {t('settings.backup.create')}
            </Button>
          </Group>
          {store.lastBackup ? (
            <Alert color="teal" data-testid="backup-done">
              {t('settings.backup.done', {
                size: size(store.lastBackup),
                date: formatDateTime(store.lastBackup.created_at, language),
              })}
              <Code block mt={4} className="ltr-value">
                {store.lastBackup.path}
              </Code>
            </Alert>
          ) : null}
        </Stack>
      </Paper>

      {store.backups.length > 0 ? (
        <Paper withBorder>
          <Table data-testid="backups-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.backup.name')}</Table.Th>
                <Table.Th>{t('settings.backup.made')}</Table.Th>
                <Table.Th>{t('settings.backup.sizeHeader')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {store.backups.map((b) => (
                <Table.Tr key={b.path} data-testid="backup-row">
                  <Table.Td title={b.path} data-testid="backup-name">
                    {backupName(b.path, language)}
                  </Table.Td>
                  <Table.Td>{formatDateTime(b.created_at, language)}</Table.Td>
                  <Table.Td>{size(b)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      {b.url ? (
                        <Anchor href={b.url} download size="sm" data-testid="backup-download">
                          <Group gap={4} wrap="nowrap">
                            <IconDownload size={14} />
                            {t('settings.backup.download')}
                          </Group>
                        </Anchor>
                      ) : null}
                      {desktop ? (
                        <Button size="xs" variant="subtle" onClick={() => void store.reveal(b.path)}>
                          {t('settings.backup.reveal')}
                        </Button>
                      ) : null}
                      <Button
                        size="xs"
                        variant="subtle"
                        color="orange"
                        onClick={() => setPath(b.path)}
                        data-testid="backup-use"
                      >
                        {t('settings.backup.useForRestore')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ) : null}

      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.backup.restore')}</Text>
          <Text size="sm" c="dimmed">
            {t('settings.backup.restoreHint')}
          </Text>
          <Group align="end">
            <TextInput
              label={t('settings.backup.path')}
              value={path}
              onChange={(event) => setPath(event.currentTarget.value)}
              dir="ltr"
              style={{ flex: 1 }}
              data-testid="restore-path"
            />
            {desktop ? (
              <Button
                variant="default"
                leftSection={<IconFolderOpen size={16} />}
                onClick={async () => {
                  const chosen = await store.chooseFile('backup-restore', path || undefined);
                  if (chosen) setPath(chosen);
                }}
              >
                {t('settings.backup.choose')}
              </Button>
            ) : (
              <FileButton
                accept=".db,.sqlite,.sqlite3,.bak,application/octet-stream,application/x-sqlite3"
                onChange={async (file) => {
                  const uploaded = file ? await store.uploadBackup(file) : null;
                  if (uploaded) setPath(uploaded.path);
                }}
              >
                {(props) => (
                  <Button
                    {...props}
                    variant="default"
                    leftSection={<IconUpload size={16} />}
                    loading={store.busy}
                    data-testid="backup-upload"
                  >
                    {t('settings.backup.upload')}
                  </Button>
                )}
              </FileButton>
            )}
            <Button
              color="orange"
              leftSection={<IconDatabaseImport size={16} />}
              disabled={!path.trim()}
              loading={store.busy}
              onClick={() => setConfirming(true)}
              data-testid="restore-start"
            >
              {t('settings.backup.restore')}
            </Button>
          </Group>
          {store.restoredFrom ? (
            <Alert color="teal" data-testid="restore-done">
              {t('settings.backup.restored')}
            </Alert>
          ) : null}
        </Stack>
      </Paper>

      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('settings.backup.restoreTitle')}
      >
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
                // Everything on screen came from the old data: start again from the new, on this
                // tab, which then says what happened.
                const done = await store.restore(path.trim());
                if (!done) return;
                keepRestoredNote({
                  from: done.restored_from,
                  safety: done.safety_backup.path,
                  revokedKeys: done.api_keys_revoked,
                });
                window.location.reload();
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
