// A campaign's state as a coloured badge: the same words and colours in the list and the report.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CampaignStatus } from '../../../stores/campaigns';

function colorOf(status: CampaignStatus): string {
  switch (status) {
    case 'draft':
      return 'gray';
    case 'scheduled':
      return 'indigo';
    case 'running':
      return 'blue';
    case 'paused':
      return 'yellow';
    case 'completed':
      return 'green';
    case 'failed':
      return 'red';
    case 'cancelled':
      return 'dark';
  }
}

export function CampaignStatusBadge({ status, testId }: { status: CampaignStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={colorOf(status)}
      variant={status === 'running' ? 'filled' : 'light'}
      style={{ textTransform: 'none' }}
      data-testid={testId}
      data-status={status}
    >
      {t(`campaigns.status.${status}`)}
    </Badge>
  );
}
