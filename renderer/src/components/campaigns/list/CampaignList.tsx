// The account's drafts and campaigns in one table: status, send time (in the user's calendar),
// audience, how much of it was sent, cost. A draft opens in the editor, a campaign its last run's
// report. Live: the store re-reads the list on the executions' pushes while it is shown.
import { Badge, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus, IconRepeat, IconSpeakerphone } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../../stores/context';
import type { CampaignRow, ListRow } from '../../../stores/campaigns';
import type { CampaignSeries } from '../../../../../shared/campaigns';
import { wallTimeParts } from '../editor/when';
import { wallTimeAt } from '../editor/zonedTime';
import { counted, formatDateTime, formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { EmptyState } from '../../EmptyState';
import { Money } from '../../Money';
import { navigate } from '../../useRoute';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import { SentProgress } from './SentProgress';

export function CampaignList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { campaigns } = useStores();
  const list = useStore(campaigns, (s) => s.list);
  useEffect(() => {
    campaigns.getState().showList();
    return () => campaigns.getState().hideList();
  }, [campaigns]);
  const count = list?.filter((row) => row.kind === 'campaign').length ?? 0;
  return (
    <Stack data-testid="page-campaigns" gap="sm">
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Title order={2}>{t('campaigns.title')}</Title>
          {list ? (
            <Text c="dimmed" data-testid="campaigns-count" data-value={count}>
              {t('campaigns.count', counted(count, language))}
            </Text>
          ) : null}
        </Group>
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => navigate('campaigns/new')}
          data-testid="campaigns-new"
        >
          {t('campaigns.new')}
        </Button>
      </Group>
      <Paper withBorder>
        {list === null ? (
          <Group justify="center" p="xl">
            <Loader size="sm" />
          </Group>
        ) : list.length === 0 ? (
          <EmptyState
            testId="campaigns-empty"
            icon={<IconSpeakerphone size={28} />}
            title={t('campaigns.empty')}
            hint={t('campaigns.emptyHint')}
          />
        ) : (
          <Table highlightOnHover verticalSpacing="sm" data-testid="campaigns-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('campaigns.columns.name')}</Table.Th>
                <Table.Th>{t('campaigns.columns.status')}</Table.Th>
                <Table.Th>{t('campaigns.columns.sendTime')}</Table.Th>
                <Table.Th>{t('campaigns.columns.audience')}</Table.Th>
                <Table.Th w={200}>{t('campaigns.columns.progress')}</Table.Th>
                <Table.Th>{t('campaigns.columns.cost')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((row) => (
                <Row key={row.kind === 'draft' ? `d${row.draft_id}` : `c${row.campaign_id}`} row={row} />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}

/** A series' kind, and its state when it no longer runs by itself (paused, ended). */
function SeriesBadge({ row, series }: { row: CampaignRow; series: CampaignSeries }) {
  const { t } = useTranslation();
  const state = series.ended ? 'ended' : series.paused ? 'paused' : null;
  return (
    <Badge
      variant="outline"
      color={state === 'paused' ? 'yellow' : state === 'ended' ? 'gray' : 'teal'}
      leftSection={<IconRepeat size={12} />}
      style={{ textTransform: 'none', flexShrink: 0 }}
      data-testid={`campaign-series-${row.campaign_id}`}
      data-kind={series.kind}
      data-paused={series.paused}
      data-ended={series.ended}
    >
      {state ? t(`campaigns.series.${state}`) : t(`campaigns.series.${series.kind}`)}
    </Badge>
  );
}

/** When the series' next occurrence is due, in the series' zone. */
function SeriesNext({ campaignId, series }: { campaignId: number; series: CampaignSeries }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (series.next_at === null) return <Text size="sm">—</Text>;
  return (
    <Text size="sm" data-testid={`campaign-next-${campaignId}`} data-at={series.next_at}>
      {t('campaigns.series.next', wallTimeParts(wallTimeAt(series.next_at, series.time_zone), language))}
    </Text>
  );
}

function Row({ row }: { row: ListRow }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const draft = row.kind === 'draft';
  const open = () => {
    if (row.kind === 'draft') navigate(`campaigns/draft/${row.draft_id}`);
    else if (row.execution_id !== null) navigate(`campaigns/execution/${row.execution_id}`);
  };
  const sendTime =
    row.send_at !== null ? formatDateTime(row.send_at, language) : draft ? t('campaigns.whenScheduled') : '—';
  return (
    <Table.Tr
      data-testid={draft ? `draft-row-${row.draft_id}` : `campaign-row-${row.campaign_id}`}
      data-kind={row.kind}
      data-name={row.name}
      data-status={row.status}
      style={{ cursor: 'pointer' }}
      onClick={open}
    >
      <Table.Td fw={600}>
        {row.name ? (
          <bdi>{row.name}</bdi>
        ) : (
          <Text span c="dimmed" fs="italic">
            {t('campaigns.untitled')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <CampaignStatusBadge
            status={row.status}
            testId={row.kind === 'campaign' ? `campaign-status-${row.campaign_id}` : `draft-status-${row.draft_id}`}
          />
          {row.kind === 'campaign' && row.series ? <SeriesBadge row={row} series={row.series} /> : null}
        </Group>
      </Table.Td>
      <Table.Td>
        {row.kind === 'campaign' && row.series ? (
          <SeriesNext campaignId={row.campaign_id} series={row.series} />
        ) : (
          <Text size="sm">{sendTime}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {row.kind === 'campaign' && row.audience !== null ? formatNumber(row.audience, language) : '—'}
      </Table.Td>
      <Table.Td>
        {row.kind === 'campaign' && row.audience !== null ? (
          <SentProgress
            run={{ ...row, audience: row.audience }}
            running={row.status === 'running'}
            testId={`campaign-progress-${row.campaign_id}`}
          />
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td>{row.kind === 'campaign' ? <Money rials={row.cost} /> : '—'}</Table.Td>
    </Table.Tr>
  );
}
