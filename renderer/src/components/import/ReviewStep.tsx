// The review: what came of every row. Each count opens its rows (with the sheet's row numbers);
// the rejection report downloads as CSV or XLSX; then the segment, a send to it, or another file.
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconSend, IconUsers } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { Rejections, RejectionReason } from '../../stores/imports';
import { counted, digits, isolate } from '../../lib/format';
import { importErrorCode } from '../../../../shared/contacts';
import { useLanguage } from '../../i18n/useLanguage';
import { navigate } from '../useRoute';
import { CountCards, type CountKind } from './CountCards';
import { ReportButtons } from './ReportButtons';

const PAGE = 100;

export function ReviewStep() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports, compose, contacts } = useStores();
  const { job, source, rejections, reset } = useStore(
    imports,
    useShallow((s) => ({ job: s.job, source: s.source, rejections: s.rejections, reset: s.reset })),
  );
  const segment = useStore(contacts, (s) => s.segments?.find((one) => one.id === job?.segment_id) ?? null);
  const [shown, setShown] = useState<RejectionReason | null>(null);
  const [rows, setRows] = useState<Rejections | null>(null);
  const failure = useFailure();
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
            : failure(job.error)}
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
  const rejected = job.invalid + job.duplicates + job.opted_out;
  const file = isolate(source?.name || job.file_name || '');
  return (
    <Stack gap="sm" data-testid="import-review" data-status={job.status}>
      <div>
        <Title order={4}>{t('import.done')}</Title>
        <Text size="sm" c="dimmed" data-testid="import-summary">
          {t(job.target_segment_id !== null ? 'import.summaryAdded' : 'import.summaryNew', {
            read: t('import.rowsRead', { ...counted(job.valid + rejected, language), file }),
            segment: isolate(segment?.name ?? ''),
            ...counted(job.valid, language),
          })}
        </Text>
      </div>
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
                  <Table.Tr
                    key={row.row}
                    data-testid="import-rejection"
                    data-row={row.row}
                    data-problem={row.problem ?? ''}
                  >
                    <Table.Td>{digits(row.row, language)}</Table.Td>
                    <Table.Td>
                      <bdi>{row.phone_number}</bdi>
                    </Table.Td>
                    <Table.Td>
                      {row.problem ? t(`import.problems.${row.problem}`) : t(`import.reasons.${row.reason}`)}
                    </Table.Td>
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
        <ReportButtons rejected={rejected} />
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

/** Why the run failed, in the window's language when it is a known file problem. */
function useFailure() {
  const { t } = useTranslation();
  return (error: string | null) => {
    const code = importErrorCode(error ?? undefined);
    return code ? t(`import.errors.${code}`) : t('import.failed', { error: error ?? '' });
  };
}
