// A campaign that runs by itself, on the page of any of its runs: what repeats, when the next
// occurrence is due, every occurrence so far (each its own report), and the series as a whole:
// pause, resume (it will spend again: asked through the campaigns' confirmation, with the month's
// estimate the core quotes for the campaign as it stands) and end.
import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconPlayerStop, IconRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CampaignQuote, CampaignSeries, ExecutionReport } from '../../../../../shared/campaigns';
import { executionShownStatus, type CampaignDetail } from '../../../stores/campaigns';
import { useStores } from '../../../stores/context';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { zoneName } from '../../../lib/names';
import { Money } from '../../Money';
import { navigate } from '../../useRoute';
import { CampaignConfirmation } from '../CampaignConfirmation';
import { CampaignStatusBadge } from '../list/CampaignStatusBadge';
import { dayOf, seriesSentence } from '../editor/series';
import { formatDay, wallTimeParts } from '../editor/when';
import { wallTimeAt } from '../editor/zonedTime';

export function SeriesOccurrences({
  campaign,
  series,
  executionId,
}: {
  campaign: CampaignDetail;
  series: CampaignSeries;
  /** The run whose page this is: its row stands out. */
  executionId: number;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { campaigns, session } = useStores();
  const [busy, setBusy] = useState(false);
  const [ending, setEnding] = useState(false);
  const [resuming, setResuming] = useState<CampaignQuote | null>(null);
  const reports = new Map<number, ExecutionReport>(campaign.executions.map((e) => [e.execution_id, e]));
  const sentence = seriesSentence(series, zoneName(series.time_zone, language), t, language);

  const act = async (action: 'seriesPause' | 'seriesResume' | 'seriesEnd') => {
    setBusy(true);
    await campaigns.getState().seriesControl(action);
    setBusy(false);
    setEnding(false);
    setResuming(null);
    // What the next occurrence holds of the credit shows in the header.
    void session.getState().refreshAccounts();
  };

  // Resuming will spend again: the month's estimate is asked first and shown in the confirmation.
  const askResume = async () => {
    setBusy(true);
    const quote = await campaigns.getState().quoteSeries();
    setBusy(false);
    if (quote) setResuming(quote);
  };

  const monthly = resuming?.monthly ?? null;
  return (
    <Paper withBorder p="md" data-testid="series-card" data-paused={series.paused} data-ended={series.ended}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Group gap="sm">
              <IconRepeat size={18} />
              <Title order={4}>{t('campaigns.series.title')}</Title>
              <Badge variant="light" color="teal" style={{ textTransform: 'none' }}>
                {t(`campaigns.series.${series.kind}`)}
              </Badge>
              {series.ended || series.paused ? (
                <Badge
                  variant="light"
                  color={series.ended ? 'gray' : 'yellow'}
                  style={{ textTransform: 'none' }}
                  data-testid="series-state"
                >
                  {t(series.ended ? 'campaigns.series.ended' : 'campaigns.series.paused')}
                </Badge>
              ) : null}
            </Group>
            {sentence ? (
              <Text size="sm" data-testid="series-sentence">
                {sentence}
              </Text>
            ) : null}
            {series.next_at !== null ? (
              <Text size="sm" c="dimmed" data-testid="series-next" data-at={series.next_at}>
                {t('campaigns.series.next', wallTimeParts(wallTimeAt(series.next_at, series.time_zone), language))}
              </Text>
            ) : null}
          </Stack>
          {series.ended ? null : (
            <Group gap="xs">
              {series.paused ? (
                <Button
                  size="xs"
                  leftSection={<IconPlayerPlay size={14} />}
                  loading={busy && resuming === null}
                  onClick={() => void askResume()}
                  data-testid="series-resume"
                >
                  {t('campaigns.series.resume')}
                </Button>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPlayerPause size={14} />}
                  loading={busy}
                  onClick={() => void act('seriesPause')}
                  data-testid="series-pause"
                >
                  {t('campaigns.series.pause')}
                </Button>
              )}
              <Button
                size="xs"
                variant="default"
                color="red"
                leftSection={<IconPlayerStop size={14} />}
                disabled={busy}
                onClick={() => setEnding(true)}
                data-testid="series-end"
              >
                {t('campaigns.series.end')}
              </Button>
            </Group>
          )}
        </Group>
        {series.occurrences.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="series-none">
            {t('campaigns.series.none')}
          </Text>
        ) : (
          <Table verticalSpacing={4} data-testid="series-occurrences">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('campaigns.series.occurrence')}</Table.Th>
                <Table.Th>{t('campaigns.series.status')}</Table.Th>
                <Table.Th>{t('campaigns.series.sent')}</Table.Th>
                <Table.Th>{t('campaigns.series.cost')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {series.occurrences.map((occurrence) => {
                const report = reports.get(occurrence.execution_id);
                const day = dayOf(occurrence.occurrence);
                // Not started: its audience is not frozen yet (a trigger's is its day's birthdays).
                const waiting = occurrence.status === 'SCHEDULED' && (report?.sent ?? 0) === 0;
                return (
                  <Table.Tr
                    key={occurrence.execution_id}
                    data-testid={`series-occurrence-${occurrence.occurrence}`}
                    data-execution={occurrence.execution_id}
                    data-status={occurrence.status}
                    data-missed={occurrence.missed}
                    data-sent={report?.sent ?? 0}
                    data-audience={report?.audience ?? 0}
                    fw={occurrence.execution_id === executionId ? 700 : undefined}
                    bg={occurrence.execution_id === executionId ? 'var(--mantine-color-teal-light)' : undefined}
                  >
                    <Table.Td>{day ? formatDay(day, language) : occurrence.occurrence}</Table.Td>
                    <Table.Td>
                      {occurrence.missed ? (
                        <Badge variant="light" color="gray" style={{ textTransform: 'none' }}>
                          {t('campaigns.series.missed')}
                        </Badge>
                      ) : (
                        <CampaignStatusBadge
                          status={report ? executionShownStatus(report.execution_status, report.paused) : 'scheduled'}
                        />
                      )}
                    </Table.Td>
                    <Table.Td>
                      {report && !waiting
                        ? t('campaigns.progress', {
                            sent: formatNumber(report.sent, language),
                            audience: formatNumber(report.audience, language),
                          })
                        : '—'}
                    </Table.Td>
                    <Table.Td>{report && !waiting ? <Money rials={report.cost} /> : '—'}</Table.Td>
                    <Table.Td>
                      <Anchor
                        size="sm"
                        href={`#/campaigns/execution/${occurrence.execution_id}`}
                        onClick={(event) => {
                          event.preventDefault();
                          navigate(`campaigns/execution/${occurrence.execution_id}`);
                        }}
                        data-testid={`series-open-${occurrence.execution_id}`}
                      >
                        {t('campaigns.series.open')}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <CampaignConfirmation
        opened={resuming !== null}
        title={t('campaigns.series.resumeTitle')}
        campaign={
          resuming
            ? {
                name: campaign.name,
                recipients: resuming.audience.recipients,
                sender: campaign.sender,
                pages: resuming.total_pages,
                costRials: resuming.total_cost_rials,
                sendRate: campaign.send_rate,
                quietHours: campaign.quiet_hours,
                when: null,
                lastMessageAt: null,
                series: monthly
                  ? {
                      kind: series.trigger ? 'trigger' : 'repeat',
                      sentence: sentence ?? '',
                      recipients: series.trigger ? monthly.recipients : resuming.audience.recipients,
                      recipientsLabel: t(
                        series.trigger
                          ? 'campaignEditor.series.perOccurrenceTrigger'
                          : 'campaignEditor.series.perOccurrence',
                      ),
                      monthlyCostRials: monthly.cost_rials,
                      next: monthly.first_at,
                      zone: series.time_zone,
                    }
                  : null,
              }
            : null
        }
        busy={busy}
        confirmLabel={t('campaigns.series.resumeConfirm')}
        cancelLabel={t('campaigns.series.keep')}
        onConfirm={() => void act('seriesResume')}
        onClose={() => setResuming(null)}
        testId="series-resume"
      />
      <Modal
        opened={ending}
        onClose={() => !busy && setEnding(false)}
        title={t('campaigns.series.endTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text size="sm">{t('campaigns.series.endText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEnding(false)} disabled={busy}>
              {t('campaigns.series.keep')}
            </Button>
            <Button color="red" loading={busy} onClick={() => void act('seriesEnd')} data-testid="series-end-confirm">
              {t('campaigns.series.endConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
