// Export of the filtered rows, for the person looking at them (their language and time zone).
// Desktop: the service writes the file and says where. Web: the service answers a same-origin
// address and the browser downloads it. The file's name is isolated from the sentence around it,
// so a path keeps its own direction beside the Persian text.
import { Button, Group, Progress, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { counted, isolate } from '../../lib/format';
import { exportLocale } from '../../lib/exports';
import { useLanguage } from '../../i18n/useLanguage';
import { download } from '../../lib/download';

export function ExportButtons() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { messages, settings } = useStores();
  const reveal = useStore(settings, (s) => s.reveal);
  const { exporting, progress, exported, exportRows, count } = useStore(
    messages,
    useShallow((s) => ({
      exporting: s.exporting,
      progress: s.exportProgress,
      exported: s.exported,
      exportRows: s.exportRows,
      count: s.count,
    })),
  );
  const run = async (format: 'csv' | 'xlsx') => {
    const result = await exportRows(format, exportLocale(language));
    if (!result) return;
    if (result.url) download(result.url, result.file_name);
    notifications.show({
      color: 'teal',
      title: t('messages.exported'),
      message: t('exports.rowsTo', {
        ...counted(result.rows, language),
        file: isolate(result.path ?? result.file_name),
      }),
    });
  };
  return (
    <Group gap="xs">
      {exporting ? (
        <Progress
          value={progress && progress.total > 0 ? (100 * progress.done) / progress.total : 100}
          animated={!progress}
          w={100}
          data-testid="export-progress"
        />
      ) : null}
      {exported && !exporting ? (
        <Text size="xs" c="dimmed" data-testid="export-result" data-rows={exported.rows} data-file={exported.file_name}>
          {t('exports.rowsTo', {
            ...counted(exported.rows, language),
            file: isolate(exported.file_name),
          })}
        </Text>
      ) : null}
      {exported?.path && !exporting ? (
        // Desktop: the file is written; open its folder.
        <Button size="xs" variant="subtle" onClick={() => void reveal(exported.path!)}>
          {t('settings.backup.reveal')}
        </Button>
      ) : null}
      <Button
        variant="light"
        leftSection={<IconFileTypeCsv size={16} />}
        onClick={() => void run('csv')}
        loading={exporting}
        disabled={!count}
        data-testid="export-csv"
      >
        {t('messages.exportCsv')}
      </Button>
      <Button
        variant="light"
        leftSection={<IconFileSpreadsheet size={16} />}
        onClick={() => void run('xlsx')}
        loading={exporting}
        disabled={!count}
        data-testid="export-xlsx"
      >
        {t('messages.exportXlsx')}
      </Button>
    </Group>
  );
}
