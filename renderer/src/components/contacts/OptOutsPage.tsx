// The opt-out list: search, add and remove numbers written any way (+98, 0098, Persian digits...),
// import a file of numbers (a contacts job: its progress comes as pushes), export.
import {
  ActionIcon,
  Alert,
  Anchor,
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
import { IconArrowBack, IconFileImport, IconSearch, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { formatDateTime, formatNumber } from '../../lib/format';
import { errorMessage } from '../../stores/errors';
import { splitReceivers } from '../../../../shared/phone';
import { useLanguage } from '../../i18n/useLanguage';
import { navigate } from '../useRoute';
import { FileExportButtons } from '../FileExportButtons';
import { usePagedRows } from '../usePagedRows';
import { PhoneCell, VirtualRows } from './VirtualRows';
import type { PayloadOf } from '../../../../shared/ipc';

interface OptOut {
  phone: string;
  created_at: number;
}

export function OptOutsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { contacts } = useStores();
  const api = useStore(contacts, (s) => s.api);
  const accountId = useStore(contacts, (s) => s.accountId);
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [version, setVersion] = useState(0);
  const [job, setJob] = useState<PayloadOf<'import:progress'> | { job_id: number; status: 'queued' } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const fetchPage = useCallback(
    async (offset: number, limit: number) => {
      if (accountId === null) return null;
      try {
        const page = await api.invoke('optouts:list', {
          account_id: accountId,
          offset,
          limit,
          ...(query ? { search: query } : {}),
        });
        return { total: page.total, rows: page.items };
      } catch (caught) {
        setError(errorMessage(caught));
        return null;
      }
    },
    [api, accountId, query],
  );
  const rows = usePagedRows<OptOut>(`${accountId}:${query}:${version}`, fetchPage);
  const changed = () => setVersion((n) => n + 1);

  // A file's import reports as pushes; the list is read again when it ends.
  useEffect(
    () =>
      api.on('import:progress', (progress) => {
        setJob((current) => {
          if (!current || current.job_id !== progress.job_id) return current;
          if (progress.status === 'done') {
            notifications.show({
              color: 'teal',
              message: t('optouts.imported', {
                valid: formatNumber(progress.valid, language),
                invalid: formatNumber(progress.invalid, language),
                duplicates: formatNumber(progress.duplicates, language),
              }),
            });
            setVersion((n) => n + 1);
          }
          if (progress.status === 'failed') setError(progress.error);
          return progress.status === 'running' || progress.status === 'queued' ? progress : null;
        });
      }),
    [api, t, language],
  );

  const change = async (action: 'add' | 'remove') => {
    if (accountId === null) return;
    const phones = splitReceivers(text);
    if (phones.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      if (action === 'add') {
        const answer = await api.invoke('optouts:add', { account_id: accountId, phones });
        setInvalid(answer.invalid);
        notifications.show({ color: 'teal', message: t('optouts.added', { n: formatNumber(answer.added, language) }) });
      } else {
        const answer = await api.invoke('optouts:remove', { account_id: accountId, phones });
        setInvalid([]);
        notifications.show({
          color: 'teal',
          message: t('optouts.removed', { n: formatNumber(answer.removed, language) }),
        });
      }
      setText('');
      changed();
      void contacts.getState().refresh();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };
  const removeOne = async (phone: string) => {
    if (accountId === null) return;
    try {
      await api.invoke('optouts:remove', { account_id: accountId, phones: [phone] });
      changed();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };
  const importFile = async (file: File | null) => {
    if (!file || accountId === null) return;
    setError(null);
    try {
      const source = await api.openSpreadsheet(file);
      const started = await api.invoke('optouts:import', { account_id: accountId, file: source.file });
      setJob({ job_id: started.job_id, status: 'queued' });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };
  const runExport = async (format: 'csv' | 'xlsx') => {
    if (accountId === null) return null;
    try {
      return await api.invoke('optouts:export', { account_id: accountId, format });
    } catch (caught) {
      setError(errorMessage(caught));
      return null;
    }
  };

  return (
    <Stack data-testid="page-optouts" gap="sm">
      <Anchor size="sm" onClick={() => navigate('contacts')}>
        <Group gap={4}>
          <IconArrowBack size={14} />
          {t('segment.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="sm" align="baseline">
            <Title order={2}>{t('optouts.title')}</Title>
            {rows.total !== null && !query ? (
              <Text c="dimmed" data-testid="optouts-count" data-value={rows.total}>
                {t('optouts.count', { n: formatNumber(rows.total, language) })}
              </Text>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" maw={640}>
            {t('optouts.hint')}
          </Text>
        </Stack>
        <Group gap="xs">
          <FileButton onChange={(file) => void importFile(file)} accept=".csv,.xlsx,.txt,.tsv">
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconFileImport size={16} />}
                loading={job !== null}
                data-testid="optouts-import"
              >
                {t('optouts.importFile')}
              </Button>
            )}
          </FileButton>
          <FileExportButtons
            run={runExport}
            labels={{ csv: t('optouts.exportCsv'), xlsx: t('optouts.exportXlsx') }}
            title={t('segment.exported')}
            testId="optouts-export"
          />
        </Group>
      </Group>
      {error ? (
        <Alert color="red" withCloseButton onClose={() => setError(null)} data-testid="optouts-error">
          {error}
        </Alert>
      ) : null}
      {job && 'fraction' in job ? (
        <Stack gap={4}>
          <Text size="sm">{t('optouts.importing', { n: formatNumber(job.rows, language) })}</Text>
          <Progress value={job.fraction * 100} animated />
        </Stack>
      ) : null}
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
            <Button onClick={() => void change('add')} loading={busy} disabled={!text.trim()} data-testid="optouts-add">
              {t('optouts.add')}
            </Button>
            <Button
              variant="light"
              color="red"
              onClick={() => void change('remove')}
              loading={busy}
              disabled={!text.trim()}
              data-testid="optouts-remove"
            >
              {t('optouts.remove')}
            </Button>
          </Group>
          {invalid.length > 0 ? (
            <Text size="sm" c="red" data-testid="optouts-invalid">
              {t('optouts.invalid', { list: invalid.join('، ') })}
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
                  onClick={() => void removeOne(item.phone)}
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
