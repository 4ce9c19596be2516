// CSV / Excel buttons of a file export (a segment, the opt-out list, a rejection report, a
// campaign's report): web mode downloads the file from the address the service answers; the
// desktop app has it written already and offers to show it in its folder. `run` is told who the
// file is for (the UI's language, this person's time zone). A notice says how many rows went
// where, the file's name or path isolated from the sentence around it.
import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../stores/context';
import { counted, isolate } from '../lib/format';
import { exportLocale, type ExportLocale } from '../lib/exports';
import { download } from '../lib/download';
import { useLanguage } from '../i18n/useLanguage';

export interface WrittenExport {
  rows: number;
  file_name: string;
  path: string | null;
  url: string | null;
}

export function FileExportButtons({
  run,
  labels,
  title,
  testId,
  disabled = false,
  size = 'sm',
  before,
}: {
  run: (format: 'csv' | 'xlsx', locale: ExportLocale) => Promise<WrittenExport | null>;
  labels: { csv: string; xlsx: string };
  /** The notice's title. */
  title: string;
  /** Buttons are `${testId}-csv`, `${testId}-xlsx`, `${testId}-reveal`. */
  testId: string;
  disabled?: boolean;
  size?: 'xs' | 'sm';
  before?: ReactNode;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const reveal = useStore(useStores().settings, (s) => s.reveal);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const [written, setWritten] = useState<string | null>(null);
  const start = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    const result = await run(format, exportLocale(language)).finally(() => setExporting(null));
    if (!result) return;
    if (result.url) download(result.url, result.file_name);
    setWritten(result.path);
    notifications.show({
      color: 'teal',
      title,
      message: t('exports.rowsTo', {
        ...counted(result.rows, language),
        file: isolate(result.path ?? result.file_name),
      }),
    });
  };
  return (
    <Group gap="xs">
      {before}
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          size={size}
          variant="light"
          leftSection={format === 'csv' ? <IconFileTypeCsv size={16} /> : <IconFileSpreadsheet size={16} />}
          disabled={disabled || (exporting !== null && exporting !== format)}
          loading={exporting === format}
          onClick={() => void start(format)}
          data-testid={`${testId}-${format}`}
        >
          {labels[format]}
        </Button>
      ))}
      {written ? (
        <Button size={size} variant="subtle" onClick={() => void reveal(written)} data-testid={`${testId}-reveal`}>
          {t('settings.backup.reveal')}
        </Button>
      ) : null}
    </Group>
  );
}
