// An open send above its messages: its name, origin or campaign status, line, time, text, counts
// and cost, live (stores/messages.ts re-reads it as statuses move); an execution links to its
// campaign report. "All sends" leads back to the by-send list.
import { Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BackLink } from '../BackLink';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { formatDateTime, formatNumber, phoneText } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { MessageTextBox } from '../MessageTextBox';
import { Money } from '../Money';
import { navigate } from '../useRoute';
import { OutcomeBar, SendTitle } from './SendParts';

export function SendHeader() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { row, error } = useStore(
    useStores().messages,
    useShallow((s) => ({ row: s.scopeRow, error: s.scopeError })),
  );
  return (
    <Paper withBorder p="md" data-testid="send-header" data-kind={row?.kind ?? ''}>
      <Stack gap="sm">
        <BackLink to="messages/sends" label={t('sends.back')} testId="send-back" />
        {error ? (
          // The service's words for it are generic (a bad request); the error is kept for debugging.
          <Text c="red" data-testid="send-header-error" data-error={error}>
            {t('sends.notFound')}
          </Text>
        ) : !row ? (
          <Stack gap="xs">
            <Skeleton height={22} width="40%" />
            <Skeleton height={14} width="70%" />
          </Stack>
        ) : (
          <>
            <Group justify="space-between" wrap="nowrap" align="start">
              <Stack gap={4} miw={0}>
                <SendTitle row={row} size="lg" />
                <Text size="sm" c="dimmed">
                  {t('sends.fromLine', { line: phoneText(row.sender, language) })} ·{' '}
                  {formatDateTime(row.created_at, language)}
                </Text>
              </Stack>
              {row.kind === 'execution' ? (
                <Anchor
                  href={`#/campaigns/execution/${row.execution_id}`}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(`campaigns/execution/${row.execution_id}`);
                  }}
                  data-testid="send-header-report"
                >
                  <Group gap={4} wrap="nowrap">
                    <IconChartBar size={16} />
                    {t('sends.report')}
                  </Group>
                </Anchor>
              ) : null}
            </Group>
            <MessageTextBox text={row.text} lineClamp={4} data-testid="send-header-text" />
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
              <Figure label={t('sends.columns.messages')}>
                <span data-testid="send-header-messages" data-value={row.messages}>
                  {formatNumber(row.messages, language)}
                </span>
              </Figure>
              <Figure label={t('sends.columns.outcome')}>
                <OutcomeBar row={row} withLabels />
              </Figure>
              <Figure label={t('sends.columns.cost')}>
                <span data-testid="send-header-cost" data-value={row.cost_rials}>
                  <Money rials={row.cost_rials} />
                </span>
              </Figure>
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} component="div">
        {children}
      </Text>
    </div>
  );
}
