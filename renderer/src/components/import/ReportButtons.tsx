// The rejection report (row, number as written, reason in the window's language) as CSV or XLSX.
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { useLanguage } from '../../i18n/useLanguage';
import { FileExportButtons } from '../FileExportButtons';

export function ReportButtons({ rejected }: { rejected: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const exportReport = useStore(useStores().imports, (s) => s.exportReport);
  return (
    <FileExportButtons
      run={(format) => exportReport(format, language)}
      labels={{ csv: t('import.reportCsv'), xlsx: t('import.reportXlsx') }}
      title={t('import.reportReady')}
      testId="import-export"
      disabled={rejected === 0}
      size="xs"
      before={
        <Text size="sm" fw={600}>
          {t('import.report')}
        </Text>
      }
    />
  );
}
