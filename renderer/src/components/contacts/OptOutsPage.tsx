// The opt-out list: search, add and remove numbers written any way (+98, 0098, Persian digits...),
// import a file of numbers (a contacts job: its progress, then its counts), export.
import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconFileImport, IconSearch, IconTrash } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { OptOutJob } from '../../stores/contacts';
import { counted, formatDateTime, formatNumber, formatPercent } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { FileExportButtons } from '../FileExportButtons';
import { usePagedRows } from '../usePagedRows';
import { PhoneCell, VirtualRows } from './VirtualRows';
import { BackLink } from '../BackLink';

interface OptOut {
  phone: string;
  created_at: number;
}

export function OptOutsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { contacts } = useStores();
  const { accountId, optOuts, optOutsPage, addOptOuts, removeOptOuts, importOptOuts, exportOptOuts, dismissOptOutJob } =
    useStore(
      contacts,
      useShallow((s) => ({
        accountId: s.accountId,
        optOuts: s.optOuts,
        optOutsPage: s.optOutsPage,
        addOptOuts: s.addOptOuts,
        removeOptOuts: s.removeOptOuts,
        importOptOuts: s.importOptOuts,
        exportOptOuts: s.exportOptOuts,
        dismissOptOutJob: s.dismissOptOutJob,
      })),
    );
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<'add' | 'remove' | null>(null);

  const fetchPage = useCallback(
    async (offset: number, limit: number) => {
      const page = await optOutsPage(offset, limit, query || undefined);
      return page && { total: page.total, rows: page.items };
    },
    [optOutsPage, query],
  );
  const rows = usePagedRows<OptOut>(`${accountId}:${query}:${optOuts.version}`, fetchPage);

  const change = async (action: 'add' | 'remove') => {
    setBusy(action);
    const n = await (action === 'add' ? addOptOuts(text) : removeOptOuts(text));
    setBusy(null);
    if (n === null) return;
    notifications.show({
      color: 'teal',
      message: t(action === 'add' ? 'optouts.added' : 'optouts.removed', counted(n, language)),
    });
    setText('');
  };
  const job = optOuts.job;
  const importing = job !== null && (job.status === 'queued' || job.status === 'running');

  return (
    <Stack data-testid="page-optouts" gap="sm">
      <BackLink to="contacts" label={t('segment.back')} testId="optouts-back" />
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="sm" align="baseline">
            <Title order={2}>{t('optouts.title')}</Title>
            {rows.total !== null && !query ? (
              <Text c="dimmed" data-testid="optouts-count" data-value={rows.total}>
                {t('optouts.count', counted(rows.total, language))}
              </Text>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" maw={640}>
            {t('optouts.hint')}
          </Text>
        </Stack>
        <Group gap="xs">
          <FileButton onChange={(file) => file && void importOptOuts(file)} accept=".csv,.xlsx,.txt,.tsv">
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconFileImport size={16} />}
                loading={importing}
                data-testid="optouts-import"
              >
                {t('optouts.importFile')}
              </Button>
            )}
          </FileButton>
          <FileExportButtons
            run={exportOptOuts}
            labels={{ csv: t('optouts.exportCsv'), xlsx: t('optouts.exportXlsx') }}
            title={t('segment.exported')}
            testId="optouts-export"
          />
        </Group>
      </Group>
      {job ? <ImportState job={job} onClose={dismissOptOutJob} /> : null}
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Textarea
            label={t('optouts.addLabel')}
            placeholder={t('optouts.addPlaceholder')}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            autosize
            minRows={2}
            maxRows={6}
            data-testid="optouts-input"
          />
          <Group gap="xs">
            <Button
              onClick={() => void change('add')}
              loading={busy === 'add'}
              disabled={!text.trim() || busy !== null}
              data-testid="optouts-add"
            >
              {t('optouts.add')}
            </Button>
            <Button
              variant="light"
              color="red"
              onClick={() => void change('remove')}
              loading={busy === 'remove'}
              disabled={!text.trim() || busy !== null}
              data-testid="optouts-remove"
            >
              {t('optouts.remove')}
            </Button>
          </Group>
          {optOuts.invalid.length > 0 ? (
            <Text size="sm" c="red" data-testid="optouts-invalid" data-value={optOuts.invalid.length}>
              {t('optouts.invalid', { list: optOuts.invalid.join(language === 'fa' ? '، ' : ', ') })}
            </Text>
          ) : null}
        </Stack>
      </Paper>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('optouts.search')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        w={320}
        data-testid="optouts-search"
      />
      {rows.total === 0 ? (
        <Text c="dimmed" data-testid="optouts-empty">
          {query ? t('optouts.emptySearch') : t('optouts.empty')}
        </Text>
      ) : (
        <VirtualRows
          testId="optouts-table"
          height="calc(100vh - 520px)"
          count={rows.total ?? 0}
          columns="160px 200px 60px"
          header={
            <>
              <div>{t('optouts.phone')}</div>
              <div>{t('optouts.added_at')}</div>
              <div />
            </>
          }
          onRange={rows.ensure}
          renderRow={(index) => {
            const item = rows.row(index);
            if (!item) return null;
            return (
              <>
                <PhoneCell phone={item.phone} testId="optout-phone" />
                <Text size="sm">{formatDateTime(item.created_at, language)}</Text>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('optouts.removeOne')}
                  onClick={() => void removeOptOuts(item.phone)}
                  data-testid="optout-remove-one"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </>
            );
          }}
        />
      )}
    </Stack>
  );
}

/** The file's import: its progress while it runs, then its counts (or why it stopped). */
function ImportState({ job, onClose }: { job: OptOutJob; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  switch (job.status) {
    case 'queued':
    case 'running':
      return (
        <Stack gap={4} data-testid="optouts-progress" data-status={job.status}>
          <Group justify="space-between">
            <Text size="sm">{t('optouts.importing', counted(job.rows, language))}</Text>
            <Text size="sm" c="dimmed">
              {formatPercent(job.fraction, language)}
            </Text>
          </Group>
          <Progress value={job.fraction * 100} animated />
        </Stack>
      );
    case 'done':
      return (
        <Alert
          color="teal"
          withCloseButton
          onClose={onClose}
          data-testid="optouts-imported"
          data-valid={job.valid}
          data-invalid={job.invalid}
          data-duplicates={job.duplicates}
        >
          {t('optouts.imported', {
            valid: formatNumber(job.valid, language),
            invalid: formatNumber(job.invalid, language),
            duplicates: formatNumber(job.duplicates, language),
          })}
        </Alert>
      );
    case 'failed':
      return (
        <Alert color="red" withCloseButton onClose={onClose} data-testid="optouts-error">
          {job.error ?? t('common.error')}
        </Alert>
      );
    case 'cancelled':
      return null;
  }
}
