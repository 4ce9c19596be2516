// One run of a campaign: its header and controls, counts, delivery chart, clicks per link,
// follow-ups, export and recipients. The store reads it on open and keeps it live (pushes, and a
// slow poll while it runs); leaving the page stops that.
import { Alert, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BackLink } from '../../BackLink';
import { useStore } from 'zustand';
import { useStores } from '../../../stores/context';
import { FileExportButtons } from '../../FileExportButtons';
import { ReportHeader } from './ReportHeader';
import { ReportCounts } from './ReportCounts';
import { DeliveryChart } from './DeliveryChart';
import { LinkClicksTable } from './LinkClicksTable';
import { FollowUps } from './FollowUps';
import { RecipientRows } from './RecipientRows';
import { SeriesOccurrences } from './SeriesOccurrences';

export function CampaignReport({ executionId }: { executionId: number }) {
  const { t } = useTranslation();
  const { campaigns } = useStores();
  const view = useStore(campaigns, (s) => s.view);
  useEffect(() => {
    void campaigns.getState().openReport(executionId);
    return () => campaigns.getState().closeReport();
  }, [campaigns, executionId]);
  const mine = view?.executionId === executionId ? view : null;
  if (mine?.missing)
    return (
      <Stack data-testid="page-campaign-report">
        <BackLink to="campaigns" label={t('report.back')} testId="report-back" />
        <Alert color="gray" data-testid="report-missing">
          {t('report.notFound')}
        </Alert>
      </Stack>
    );
  if (!mine?.report)
    return (
      <Stack data-testid="page-campaign-report">
        <BackLink to="campaigns" label={t('report.back')} testId="report-back" />
        <Group justify="center" p="xl">
          <Loader size="sm" />
        </Group>
      </Stack>
    );
  const { report, campaign } = mine;
  return (
    <Stack
      data-testid="page-campaign-report"
      data-execution={executionId}
      data-status={report.execution_status}
      data-version={mine.version}
      gap="md"
    >
      <BackLink to="campaigns" label={t('report.back')} testId="report-back" />
      <ReportHeader report={report} campaign={campaign} />
      {campaign?.series ? (
        <SeriesOccurrences campaign={campaign} series={campaign.series} executionId={executionId} />
      ) : null}
      <ReportCounts report={report} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <DeliveryChart chart={mine.chart} />
        <Stack gap="md">
          <LinkClicksTable links={mine.links ?? []} clickers={mine.clickers} report={report} />
          <FollowUps
            report={report}
            campaignName={campaign?.name ?? ''}
            sender={campaign?.sender ?? ''}
            clickers={mine.clickers}
          />
        </Stack>
      </SimpleGrid>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('report.rows.exportHint')}
          </Text>
          <FileExportButtons
            run={(format, locale) => campaigns.getState().exportReport(format, locale.language, locale.time_zone)}
            labels={{ csv: t('report.exportCsv'), xlsx: t('report.exportXlsx') }}
            title={t('report.exported')}
            testId="report-export"
            size="xs"
          />
        </Group>
        <RecipientRows executionId={executionId} version={mine.version} />
      </Stack>
    </Stack>
  );
}
