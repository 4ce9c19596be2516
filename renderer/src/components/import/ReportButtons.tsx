// The rejection report (row, number as written, reason in the window's language) as CSV or XLSX.
// As every export here: web mode downloads the file from the address the service answers; the
// desktop app has it written already and offers to show it in its folder.
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { formatNumber } from '../../lib/format';
import { download } from '../../lib/download';
import { useLanguage } from '../../i18n/useLanguage';

export function ReportButtons({ rejected }: { rejected: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports, settings } = useStores();
  const exportReport = useStore(imports, (s) => s.exportReport);
  const reveal = useStore(settings, (s) => s.reveal);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const [written, setWritten] = useState<string | null>(null);
  const run = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    const result = await exportReport(format, language);
    setExporting(null);
    if (!result) return;
    if (result.url) download(result.url, result.file_name);
    setWritten(result.path ?? null);
    notifications.show({
      color: 'teal',
      title: t('import.reportReady'),
      message: t('import.reportRows', {
        n: formatNumber(result.rows, language),
        file: result.path ?? result.file_name,
      }),
    });
  };
  return (
    <Group gap="xs">
      <Text size="sm" fw={600}>
        {t('import.report')}
      </Text>
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          size="xs"
          variant="light"
          leftSection={format === 'csv' ? <IconFileTypeCsv size={14} /> : <IconFileSpreadsheet size={14} />}
          disabled={rejected === 0 || (exporting !== null && exporting !== format)}
          loading={exporting === format}
          onClick={() => void run(format)}
          data-testid={`import-export-${format}`}
        >
          {t(format === 'csv' ? 'import.reportCsv' : 'import.reportXlsx')}
        </Button>
      ))}
      {written ? (
        <Button size="xs" variant="subtle" onClick={() => void reveal(written)} data-testid="import-report-reveal">
          {t('settings.backup.reveal')}
        </Button>
      ) : null}
    </Group>
  );
}
