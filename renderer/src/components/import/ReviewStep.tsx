// The review: what came of every row. Each count opens its rows (with the sheet's row numbers);
// the rejection report downloads as CSV or XLSX; then the segment, a send to it, or another file.
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconFileTypeCsv, IconSend, IconUsers } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { Rejections, RejectionReason } from '../../stores/imports';
import { digits, formatNumber } from '../../lib/format';
import { download } from '../../lib/download';
import { useLanguage } from '../../i18n/useLanguage';
import { navigate } from '../useRoute';
import { CountCards, type CountKind } from './CountCards';

const PAGE = 100;

export function ReviewStep() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports, compose } = useStores();
  const { job, rejections, exportReport, reset } = useStore(
    imports,
    useShallow((s) => ({ job: s.job, rejections: s.rejections, exportReport: s.exportReport, reset: s.reset })),
  );
  const [shown, setShown] = useState<RejectionReason | null>(null);
  const [rows, setRows] = useState<Rejections | null>(null);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  useEffect(() => {
    if (!shown) return;
    let current = true;
    void rejections(shown, 0, PAGE).then((answer) => current && setRows(answer));
    return () => {
      current = false;
      setRows(null);
    };
  }, [shown, rejections]);
  if (!job) return null;
  const another = () => {
    reset();
    navigate('contacts/import');
  };
  if (job.status !== 'done')
    return (
      <Stack gap="sm" data-testid="import-review" data-status={job.status}>
        <Alert color={job.status === 'cancelled' ? 'gray' : 'red'} data-testid="import-ended">
          {job.status === 'cancelled'
            ? job.target_segment_id !== null
              ? t('import.cancelledExisting')
              : t('import.cancelled')
            : t('import.failed', { error: job.error ?? '' })}
        </Alert>
        <Group>
          <Button onClick={another} data-testid="import-another">
            {t('import.another')}
          </Button>
        </Group>
      </Stack>
    );
  const select = (kind: CountKind) => {
    if (kind === 'valid') return navigate(`contacts/segment/${job.segment_id}`);
    setShown(kind);
  };
  const more = async () => {
    if (!shown || !rows) return;
    const next = await rejections(shown, rows.rows.length, PAGE);
    if (next) setRows({ total: next.total, rows: [...rows.rows, ...next.rows] });
  };
  const runExport = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    const result = await exportReport(format, language);
    setExporting(null);
    if (!result) return;
    if (result.url) download(result.url, result.file_name);
    notifications.show({
      color: 'teal',
      title: t('segment.exported'),
      message: t('segment.exportedRows', {
        n: formatNumber(result.rows, language),
        file: result.path ?? result.file_name,
      }),
    });
  };
  const rejected = job.invalid + job.duplicates + job.opted_out;
  return (
    <Stack gap="sm" data-testid="import-review" data-status={job.status}>
      <Title order={4}>{t('import.done')}</Title>
      <CountCards job={job} selected={shown} onSelect={select} />
      {shown ? (
        <Paper withBorder p="sm">
          <Text fw={600} mb="xs">
            {t(`import.rejectedTitle.${shown}`)}
          </Text>
          {rows && rows.rows.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('import.noRejected')}
            </Text>
          ) : (
            <Table striped data-testid="import-rejections" data-reason={shown} data-total={rows?.total ?? ''}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={100}>{t('import.columns.row')}</Table.Th>
                  <Table.Th>{t('import.columns.phone')}</Table.Th>
                  <Table.Th>{t('import.columns.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(rows?.rows ?? []).map((row) => (
                  <Table.Tr key={row.row} data-testid="import-rejection" data-row={row.row}>
                    <Table.Td>{digits(row.row, language)}</Table.Td>
                    <Table.Td dir="auto">{row.phone_number}</Table.Td>
                    <Table.Td>{t(`import.reasons.${row.reason}`)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {rows && rows.rows.length < rows.total ? (
            <Button variant="subtle" size="xs" mt="xs" onClick={() => void more()}>
              {t('import.more')}
            </Button>
          ) : null}
        </Paper>
      ) : null}
      <Group justify="space-between">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {t('import.report')}
          </Text>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconFileTypeCsv size={14} />}
            disabled={rejected === 0}
            loading={exporting === 'csv'}
            onClick={() => void runExport('csv')}
            data-testid="import-export-csv"
          >
            {t('import.reportCsv')}
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconFileSpreadsheet size={14} />}
            disabled={rejected === 0}
            loading={exporting === 'xlsx'}
            onClick={() => void runExport('xlsx')}
            data-testid="import-export-xlsx"
          >
            {t('import.reportXlsx')}
          </Button>
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={another} data-testid="import-another">
            {t('import.another')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconUsers size={16} />}
            onClick={() => navigate(`contacts/segment/${job.segment_id}`)}
            data-testid="import-open-segment"
          >
            {t('import.openSegment')}
          </Button>
          <Button
            leftSection={<IconSend size={16} />}
            onClick={() => {
              compose.getState().setSegment(job.segment_id);
              void compose.getState().refreshSegments();
              navigate('compose');
            }}
            data-testid="import-send"
          >
            {t('import.sendToSegment')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
