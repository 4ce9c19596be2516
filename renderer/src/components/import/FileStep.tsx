// The first step: a file dropped here or picked (the desktop app also offers its own dialog).
import { Button, Group, Loader, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { useLanguage } from '../../i18n/useLanguage';
import { formatBytes } from '../../lib/format';

export function FileStep() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports, contacts } = useStores();
  const openFile = useStore(imports, (s) => s.openFile);
  const openPath = useStore(imports, (s) => s.openPath);
  const uploading = useStore(imports, (s) => s.uploading);
  const previewing = useStore(imports, (s) => s.previewing);
  const api = useStore(contacts, (s) => s.api);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [size, setSize] = useState(0);
  const take = (file: File | undefined) => {
    if (!file) return;
    setSize(file.size);
    void openFile(file);
  };
  const choose = async () => {
    if (api.desktop) {
      const { path } = await api.invoke('files:choose', { purpose: 'spreadsheet' });
      if (path) void openPath(path);
    } else input.current?.click();
  };
  const busy = uploading || previewing;
  return (
    <Paper
      withBorder
      p="xl"
      data-import-dropzone
      data-testid="import-dropzone"
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: dragging ? 'var(--mantine-color-teal-6)' : undefined,
        background: dragging ? 'var(--mantine-color-teal-0)' : undefined,
      }}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        take(event.dataTransfer.files[0]);
      }}
    >
      <Stack align="center" gap="sm" py="xl">
        <ThemeIcon size={64} radius="xl" variant="light" color="teal">
          <IconFileSpreadsheet size={36} />
        </ThemeIcon>
        <Text size="lg" fw={700}>
          {t('import.drop')}
        </Text>
        <Text size="sm" c="dimmed" ta="center" maw={480}>
          {t('import.dropHint')}
        </Text>
        {busy ? (
          <Group gap="xs" data-testid="import-busy">
            <Loader size="sm" />
            <Text size="sm">
              {uploading ? t('import.uploading', { size: formatBytes(size, language) }) : t('import.reading')}
            </Text>
          </Group>
        ) : (
          <Button onClick={() => void choose()} data-testid="import-choose">
            {t('import.choose')}
          </Button>
        )}
        <input
          ref={input}
          type="file"
          accept=".csv,.xlsx,.txt,.tsv"
          hidden
          data-testid="import-file-input"
          onChange={(event) => {
            take(event.currentTarget.files?.[0]);
            event.currentTarget.value = '';
          }}
        />
      </Stack>
    </Paper>
  );
}
