// The run's recipients, one row each (virtualized: a run can have 800,000), filtered by the
// report's status groups and by clicks; a row opens the recipient's timeline and clicks.
import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../../stores/context';
import type { ClickFilter, RowGroup } from '../../../stores/campaigns';
import type { ExecutionMessage } from '../../../../../shared/campaigns';
import { counted, formatDateTime, formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { StatusBadge } from '../../StatusBadge';
import { Money } from '../../Money';
import { PhoneCell, VirtualRows } from '../../contacts/VirtualRows';
import { useLiveRows } from './useLiveRows';
import { RecipientDrawer } from './RecipientDrawer';

const COLUMNS = '72px 150px minmax(140px, 1.4fr) 130px 170px 70px';

const GROUPS: RowGroup[] = ['all', 'delivered', 'failed', 'pending'];
const CLICKS: Array<{ value: ClickFilter; key: 'any' | 'clicked' | 'notClicked' }> = [
  { value: 'any', key: 'any' },
  { value: 'clicked', key: 'clicked' },
  { value: 'not_clicked', key: 'notClicked' },
];

export function RecipientRows({ executionId, version }: { executionId: number; version: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { campaigns } = useStores();
  const { filter, rowCount, setFilter, recipients } = useStore(
    campaigns,
    useShallow((s) => ({ filter: s.filter, rowCount: s.rowCount, setFilter: s.setFilter, recipients: s.recipients })),
  );
  const [open, setOpen] = useState<number | null>(null);
  const fetchPage = useCallback((offset: number, limit: number) => recipients(offset, limit), [recipients]);
  const rows = useLiveRows<ExecutionMessage>(`${executionId}:${filter.group}:${filter.clicked}`, version, fetchPage);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Text fw={600}>{t('report.rows.title')}</Text>
          {rowCount !== null ? (
            <Text size="sm" c="dimmed" data-testid="report-rows-count" data-value={rowCount}>
              {t('report.rows.matches', counted(rowCount, language))}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={filter.group}
            onChange={(value) => setFilter({ group: value as RowGroup })}
            data={GROUPS.map((group) => ({ value: group, label: t(`report.filter.${group}`) }))}
            data-testid="report-filter-group"
          />
          <SegmentedControl
            size="xs"
            value={filter.clicked}
            onChange={(value) => setFilter({ clicked: value as ClickFilter })}
            data={CLICKS.map(({ value, key }) => ({ value, label: t(`report.filter.${key}`) }))}
            data-testid="report-filter-clicked"
          />
        </Group>
      </Group>
      {rowCount === 0 ? (
        <Text c="dimmed" data-testid="report-rows-empty">
          {t('report.rows.empty')}
        </Text>
      ) : (
        <VirtualRows
          testId="report-rows"
          count={rowCount ?? 0}
          height="min(560px, calc(100vh - 240px))"
          columns={COLUMNS}
          header={
            <>
              <div>#</div>
              <div>{t('report.rows.receptor')}</div>
              <div>{t('report.rows.status')}</div>
              <div>{t('report.rows.cost')}</div>
              <div>{t('report.rows.date')}</div>
              <div>{t('report.rows.clicks')}</div>
            </>
          }
          onRange={rows.ensure}
          renderRow={(index) => {
            const message = rows.row(index);
            if (!message) return null;
            return (
              <div
                role="button"
                tabIndex={0}
                // One cell across the row, laid out like the row, so the whole row is one target.
                style={{
                  gridColumn: '1 / -1',
                  display: 'grid',
                  gridTemplateColumns: COLUMNS,
                  gap: 8,
                  alignItems: 'center',
                  height: '100%',
                  cursor: 'pointer',
                }}
                onClick={() => setOpen(message.messageid)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') setOpen(message.messageid);
                }}
                data-testid={`report-row-${message.messageid}`}
                data-status={message.status}
                data-clicks={message.clicks}
                data-receptor={message.receptor}
              >
                <Text size="xs" c="dimmed">
                  {formatNumber(index + 1, language)}
                </Text>
                <PhoneCell phone={message.receptor} testId="report-row-receptor" />
                <div style={{ overflow: 'hidden' }}>
                  <StatusBadge status={message.status} />
                </div>
                <div>
                  <Money rials={message.cost} />
                </div>
                <Text size="sm">{formatDateTime(message.date * 1000, language)}</Text>
                <Text size="sm" fw={message.clicks > 0 ? 700 : undefined}>
                  {formatNumber(message.clicks, language)}
                </Text>
              </div>
            );
          }}
        />
      )}
      <RecipientDrawer messageId={open} version={version} onClose={() => setOpen(null)} />
    </Stack>
  );
}
