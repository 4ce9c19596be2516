// Clicks per tracked link: visits, distinct recipients who visited, and the click-through rate
// (clickers over delivered, or over sent while no delivery is reported), with the overall rate;
// for a campaign whose links went out untracked, that no click is counted.
import { Paper, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { clickThrough, type LinkClicks } from '../../../stores/campaigns';
import type { ExecutionReport } from '../../../../../shared/campaigns';
import { formatNumber, formatPercent } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';

export function LinkClicksTable({
  links,
  clickers,
  report,
}: {
  links: LinkClicks;
  clickers: number | null;
  report: ExecutionReport;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const rate = (n: number) => {
    const ratio = clickThrough(n, report);
    return ratio === null ? '—' : formatPercent(ratio, language);
  };
  const overall = clickers === null ? null : clickThrough(clickers, report);
  return (
    <Paper withBorder p="md">
      <Text fw={600} mb="sm">
        {t('report.links.title')}
      </Text>
      {!report.track_links ? (
        <Text size="sm" c="dimmed" data-testid="report-links-untracked">
          {t('report.links.notTracked')}
        </Text>
      ) : links.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="report-no-links">
          {t('report.links.none')}
        </Text>
      ) : (
        <>
          <Table verticalSpacing="xs" data-testid="report-link-clicks">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('report.links.link')}</Table.Th>
                <Table.Th>{t('report.links.clicks')}</Table.Th>
                <Table.Th>{t('report.links.clickers')}</Table.Th>
                <Table.Th>{t('report.links.ctr')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {links.map((link) => (
                <Table.Tr
                  key={link.idx}
                  data-testid={`report-link-clicks-${link.idx}`}
                  data-clicks={link.clicks}
                  data-clickers={link.clickers}
                >
                  <Table.Td maw={280}>
                    <Text size="sm" truncate="end" title={link.actual_url}>
                      <bdi dir="ltr">{link.actual_url}</bdi>
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatNumber(link.clicks, language)}</Table.Td>
                  <Table.Td>{formatNumber(link.clickers, language)}</Table.Td>
                  <Table.Td>{rate(link.clickers)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" mt="sm" fw={600} data-testid="report-ctr" data-value={overall ?? ''}>
            {overall === null || clickers === null
              ? t('report.links.overallNone')
              : t('report.links.overall', {
                  rate: formatPercent(overall, language),
                  n: formatNumber(clickers, language),
                })}
          </Text>
        </>
      )}
    </Paper>
  );
}
