// One email send's results: what was sent to whom through what, the counts by status (live from
// the `email:progress` pushes, and a slow read while it runs), cancel while it is sending (asked
// once), the recipients (virtualized, by status group and address) and their export.
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlayerStop, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { finishedOf, RECIPIENT_GROUPS, type RecipientGroup } from '../../stores/email';
import type { EmailRecipient, EmailSend } from '../../../../shared/ipc/contracts/email';
import { counted, formatDateTime, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { BackLink } from '../BackLink';
import { FileExportButtons } from '../FileExportButtons';
import { Cell, VirtualRows } from '../contacts/VirtualRows';
import { useLiveRows } from '../campaigns/report/useLiveRows';
import { CountBadges, CountsBar, EmailStatusBadge, SendStateBadge } from './EmailStatus';
import { useTransportText } from './SendPanel';
import { useTextDirection } from '../../lib/direction';

const ROW_HEIGHT = 40;
const COLUMNS = '64px minmax(180px, 1.6fr) minmax(100px, 1fr) 150px 170px minmax(100px, 1fr)';

export function SendResults({ sendId }: { sendId: number }) {
  const { t } = useTranslation();
  const { email } = useStores();
  const { current, missing, accountId } = useStore(
    email,
    useShallow((s) => ({ current: s.current, missing: s.missing, accountId: s.accountId })),
  );
  // Opened from the composer's confirmation or a list further down: its header is what to see first.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [sendId]);
  useEffect(() => {
    void email.getState().openSend(sendId);
    return () => email.getState().closeSend();
  }, [email, sendId, accountId]);
  const send = current?.id === sendId ? current : null;
  const back = <BackLink to="email/sends" label={t('email.results.back')} testId="email-results-back" />;
  if (missing && !send)
    return (
      <Stack>
        {back}
        <Alert color="gray" data-testid="email-results-missing">
          {t('email.results.notFound')}
        </Alert>
      </Stack>
    );
  if (!send)
    return (
      <Stack>
        {back}
        <Group justify="center" p="xl">
          <Loader size="sm" />
        </Group>
      </Stack>
    );
  return (
    <Stack gap="md" data-testid="email-results" data-id={send.id} data-state={send.state}>
      {back}
      <Header send={send} />
      <Counts send={send} />
      <Recipients send={send} />
    </Stack>
  );
}

function Header({ send }: { send: EmailSend }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const config = useStore(useStores().email, (s) => s.config);
  const transport = useTransportText(config, send.transport);
  const from = send.from.name ? `${send.from.name} <${send.from.email}>` : send.from.email;
  const subjectDirection = useTextDirection(send.subject);
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Title
            order={3}
            dir={subjectDirection}
            data-user-text
            data-testid="email-results-subject"
            style={{ overflowWrap: 'anywhere' }}
          >
            {send.subject}
          </Title>
          <SendStateBadge state={send.state} />
        </Group>
        {send.state === 'sending' ? <CancelButton /> : null}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} verticalSpacing={2}>
        <Meta label={t('email.results.segment')} testId="email-results-segment">
          <bdi>{send.segment_name}</bdi>
        </Meta>
        <Meta label={t('email.results.from')} testId="email-results-from">
          <bdi dir="ltr">{from}</bdi>
        </Meta>
        <Meta label={t('email.results.created')} testId="email-results-created">
          {formatDateTime(send.created_at, language)}
        </Meta>
        {send.finished_at !== null ? (
          <Meta label={t('email.results.finished')} testId="email-results-finished">
            {formatDateTime(send.finished_at, language)}
          </Meta>
        ) : null}
        <Meta label={t('email.results.transport')} testId="email-results-transport">
          {transport}
        </Meta>
      </SimpleGrid>
      {send.error ? (
        <Alert color="red" data-testid="email-results-error">
          {t('email.results.error', { error: send.error })}
        </Alert>
      ) : null}
    </Stack>
  );
}

function Meta({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function Counts({ send }: { send: EmailSend }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const finished = finishedOf(send);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{t('email.results.counts')}</Text>
          <Text size="sm" c="dimmed" data-testid="email-results-progress" data-done={finished} data-total={send.total}>
            {t('email.results.progress', {
              done: formatNumber(finished, language),
              total: formatNumber(send.total, language),
            })}
          </Text>
        </Group>
        <CountsBar send={send} size="lg" />
        <CountBadges send={send} size="md" />
      </Stack>
    </Paper>
  );
}

function CancelButton() {
  const { t } = useTranslation();
  const { email } = useStores();
  const cancelling = useStore(email, (s) => s.cancelling);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button
        color="red"
        variant="light"
        leftSection={<IconPlayerStop size={16} />}
        onClick={() => setAsking(true)}
        loading={cancelling}
        style={{ flexShrink: 0 }}
        data-testid="email-cancel"
      >
        {t('email.results.cancel')}
      </Button>
      <Modal opened={asking} onClose={() => setAsking(false)} title={t('email.results.cancelTitle')}>
        <Stack gap="sm" data-testid="email-cancel-confirm">
          <Text size="sm">{t('email.results.cancelBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)} data-testid="email-cancel-keep">
              {t('email.results.cancelKeep')}
            </Button>
            <Button
              color="red"
              onClick={() => {
                setAsking(false);
                void email.getState().cancelSend();
              }}
              data-testid="email-cancel-yes"
            >
              {t('email.results.cancelYes')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function Recipients({ send }: { send: EmailSend }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { email } = useStores();
  const { filter, total, version, setFilter, recipients, exportResults } = useStore(
    email,
    useShallow((s) => ({
      filter: s.filter,
      total: s.recipientsTotal,
      version: s.version,
      setFilter: s.setFilter,
      recipients: s.recipients,
      exportResults: s.exportResults,
    })),
  );
  const [search, setSearch] = useState(filter.search);
  const [query] = useDebouncedValue(search.trim(), 250);
  useEffect(() => {
    if (query !== email.getState().filter.search) setFilter({ search: query });
  }, [query, email, setFilter]);
  const fetchPage = useCallback((offset: number, limit: number) => recipients(offset, limit), [recipients]);
  const rows = useLiveRows<EmailRecipient>(`${send.id}:${filter.group}:${filter.search}`, version, fetchPage);
  // A filter's count is not known before its first page: that page is asked for at once.
  const { ensure } = rows;
  useEffect(() => {
    if (total === null) ensure(0, 0);
  }, [total, ensure]);
  // The count comes with each page; before the first one, the send's own total (unfiltered).
  const count = total ?? (filter.group === 'all' && filter.search === '' ? send.total : 0);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Text fw={600}>{t('email.results.recipients')}</Text>
          {total !== null ? (
            <Text size="sm" c="dimmed" data-testid="email-rows-count" data-value={total}>
              {t('email.results.matches', counted(total, language))}
            </Text>
          ) : null}
        </Group>
        <FileExportButtons
          run={(format, locale) => exportResults(format, locale.language, locale.time_zone)}
          labels={{ csv: t('email.results.exportCsv'), xlsx: t('email.results.exportXlsx') }}
          title={t('email.results.exported')}
          testId="email-export"
          size="xs"
        />
      </Group>
      <Group gap="sm">
        <SegmentedControl
          size="xs"
          value={filter.group}
          onChange={(value) => setFilter({ group: value as RecipientGroup })}
          data={RECIPIENT_GROUPS.map((group) => ({ value: group, label: t(`email.results.filter.${group}`) }))}
          data-testid="email-filter"
        />
        <TextInput
          size="xs"
          leftSection={<IconSearch size={14} />}
          placeholder={t('email.results.search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={260}
          data-testid="email-search"
        />
      </Group>
      {total === 0 ? (
        <Text c="dimmed" data-testid="email-rows-empty">
          {t('email.results.empty')}
        </Text>
      ) : (
        <VirtualRows
          testId="email-rows"
          count={count}
          // As tall as its rows, up to what the window leaves.
          height={`min(${count * ROW_HEIGHT + 2}px, 520px, calc(100vh - 260px))`}
          columns={COLUMNS}
          header={
            <>
              <div>{t('email.results.row')}</div>
              <div>{t('email.results.address')}</div>
              <div>{t('email.results.name')}</div>
              <div>{t('email.results.status')}</div>
              <div>{t('email.results.updated')}</div>
              <div>{t('email.results.why')}</div>
            </>
          }
          onRange={rows.ensure}
          renderRow={(index) => {
            const recipient = rows.row(index);
            if (!recipient) return null;
            return (
              <div
                style={{ display: 'contents' }}
                data-testid="email-row"
                data-row={recipient.row}
                data-email={recipient.email}
                data-status={recipient.status}
              >
                <Text size="xs" c="dimmed">
                  {formatNumber(recipient.row, language)}
                </Text>
                <div style={{ overflow: 'hidden', textOverflow: 'ellipsis' }} title={recipient.email}>
                  <bdi dir="ltr">{recipient.email}</bdi>
                </div>
                <Cell text={recipient.name} />
                <div style={{ overflow: 'hidden' }}>
                  <EmailStatusBadge status={recipient.status} />
                </div>
                <Text size="sm">{formatDateTime(recipient.updated_at, language)}</Text>
                <Cell text={recipient.error ?? ''} />
              </div>
            );
          }}
        />
      )}
    </Stack>
  );
}
