// A campaign's state as a coloured badge: the one badge of an execution's state, so the list, the
// report, the dashboard and the sends show the same words and colours. The colours mean what the
// message statuses' do (shared/lifecycle.ts's tones, lib/status.ts's colours): waiting, scheduled,
// on its way, delivered, failed and stopped read alike on a campaign and on its messages.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StatusTone } from '../../../../../shared/lifecycle';
import type { CampaignStatus } from '../../../stores/campaigns';
import { toneColor } from '../../../lib/status';

const TONES: Record<Exclude<CampaignStatus, 'paused'>, StatusTone> = {
  draft: 'waiting',
  scheduled: 'scheduled',
  running: 'in-flight',
  completed: 'success',
  failed: 'rejected',
  cancelled: 'blocked',
};

/** Held by the user: no message status means that. */
const PAUSED_COLOR = 'yellow';

function colorOf(status: CampaignStatus): string {
  return status === 'paused' ? PAUSED_COLOR : toneColor(TONES[status]);
}

export function CampaignStatusBadge({ status, testId }: { status: CampaignStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={colorOf(status)}
      variant={status === 'running' ? 'filled' : 'light'}
      // Beside a long name (the dashboard's, the sends') the name gives way, not the badge.
      style={{ textTransform: 'none', flexShrink: 0 }}
      data-testid={testId}
      data-status={status}
    >
      {t(`campaigns.status.${status}`)}
    </Badge>
  );
}
