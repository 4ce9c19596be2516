// The one confirmation before a campaign is created, from the editor's "Schedule" and from a
// report's "Resend to failed": the name, recipients (and the conditions they meet), line (and who
// delivers it), pages, the total cost the core computed, the send rate and quiet hours, when it
// sends and when the last message goes; asked once, and its button cannot fire twice while the
// creation is out.
import { Button, Group, Modal, Stack, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { digits, formatNumber, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import type { GatewayKind } from '../../../../shared/gateways';
import { Money } from '../Money';
import { Delivery } from '../gateways/Delivery';
import { PhoneNumber } from '../PhoneNumber';
import { instantParts, wallTimeParts } from './editor/when';
import { wallTimeAt } from './editor/zonedTime';

export interface CampaignToConfirm {
  name: string;
  recipients: number;
  /** The column conditions the recipients meet, in words (null: none). */
  filter?: string | null;
  sender: string;
  gateway?: GatewayKind;
  pages: number;
  costRials: number;
  sendRate: number | null;
  quietHours: string | null;
  /** When it sends, as words (null: now). */
  when: string | null;
  lastMessageAt: number | null;
  /** A campaign that runs by itself: what repeats, the count per occurrence, the month's estimate. */
  series?: {
    /** A date trigger sends each day only to that day's dates: no total is charged at once. */
    kind: 'repeat' | 'trigger';
    sentence: string;
    recipients: number;
    /** What `recipients` counts ("Recipients per occurrence", "… in the next 30 days"). */
    recipientsLabel: string;
    monthlyCostRials: number;
    /** The first occurrence (ms), shown on the wall of `zone`. */
    next: number | null;
    zone: string;
  } | null;
}

export function CampaignConfirmation({
  opened,
  title,
  campaign,
  busy,
  confirmLabel,
  cancelLabel,
  canConfirm = true,
  onConfirm,
  onClose,
  testId,
  children,
}: {
  opened: boolean;
  title: string;
  campaign: CampaignToConfirm | null;
  busy: boolean;
  confirmLabel: string;
  cancelLabel: string;
  canConfirm?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** The prefix of the test ids: `${testId}-confirm-summary`, `${testId}-confirm-cost`… */
  testId: string;
  /** Said below the figures: what is left out, an error. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Modal
      opened={opened && campaign !== null}
      // Closing is not offered while the creation is out: its answer decides what comes next.
      onClose={() => !busy && onClose()}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {campaign ? (
        <Stack data-testid={`${testId}-confirm-summary`}>
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              <Row label={t('campaignEditor.schedule.name')} testId={`${testId}-confirm-name`}>
                {isolate(campaign.name)}
              </Row>
              <Row
                label={t(campaign.series ? 'campaignEditor.series.audienceAll' : 'campaignEditor.schedule.recipients')}
                testId={`${testId}-confirm-recipients`}
              >
                {formatNumber(campaign.recipients, language)}
              </Row>
              {campaign.filter ? (
                <Row label={t('campaignEditor.filter.confirmLabel')} testId={`${testId}-confirm-filter`}>
                  {campaign.filter}
                </Row>
              ) : null}
              <Row label={t('campaignEditor.schedule.line')} testId={`${testId}-confirm-line`}>
                <PhoneNumber number={campaign.sender} />
              </Row>
              <Row label={t('gateways.confirm.delivery')} testId={`${testId}-confirm-gateway`}>
                <Delivery sender={campaign.sender} kind={campaign.gateway} />
              </Row>
              {campaign.series?.kind === 'trigger' ? null : (
                <>
                  <Row label={t('campaignEditor.schedule.pages')} testId={`${testId}-confirm-pages`}>
                    {formatNumber(campaign.pages, language)}
                  </Row>
                  <Row
                    label={t(
                      campaign.series ? 'campaignEditor.series.costPerOccurrence' : 'campaignEditor.schedule.cost',
                    )}
                    testId={`${testId}-confirm-cost`}
                    rials={campaign.costRials}
                  >
                    <Money rials={campaign.costRials} />
                  </Row>
                </>
              )}
              {campaign.sendRate !== null ? (
                <Row label={t('campaignEditor.schedule.rate')} testId={`${testId}-confirm-rate`}>
                  {t('campaignEditor.schedule.perMinute', { n: formatNumber(campaign.sendRate, language) })}
                </Row>
              ) : null}
              {campaign.quietHours !== null ? (
                <Row label={t('campaignEditor.schedule.quiet')} testId={`${testId}-confirm-quiet`}>
                  <bdi dir="ltr">{digits(campaign.quietHours, language)}</bdi>
                </Row>
              ) : null}
              <Row label={t('campaignEditor.schedule.when')} testId={`${testId}-confirm-when`}>
                {campaign.series ? campaign.series.sentence : (campaign.when ?? t('campaignEditor.schedule.now'))}
              </Row>
              {campaign.series ? (
                <>
                  {campaign.series.next !== null ? (
                    <Row label={t('campaignEditor.series.next')} testId={`${testId}-confirm-next`}>
                      {t(
                        'campaignEditor.when.dayAt',
                        wallTimeParts(wallTimeAt(campaign.series.next, campaign.series.zone), language),
                      )}
                    </Row>
                  ) : null}
                  <Row label={campaign.series.recipientsLabel} testId={`${testId}-confirm-series-recipients`}>
                    {formatNumber(campaign.series.recipients, language)}
                  </Row>
                  <Row
                    label={t('campaignEditor.series.monthlyCost')}
                    testId={`${testId}-confirm-monthly`}
                    rials={campaign.series.monthlyCostRials}
                  >
                    <Money rials={campaign.series.monthlyCostRials} />
                  </Row>
                </>
              ) : null}
              {campaign.lastMessageAt !== null ? (
                <Row label={t('campaignEditor.schedule.last')} testId={`${testId}-confirm-last`}>
                  {t('campaignEditor.when.dayAt', instantParts(campaign.lastMessageAt, language))}
                </Row>
              ) : null}
            </Table.Tbody>
          </Table>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {cancelLabel}
            </Button>
            <Button onClick={onConfirm} loading={busy} disabled={busy || !canConfirm} data-testid={`${testId}-confirm`}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function Row({
  label,
  testId,
  rials,
  children,
}: {
  label: string;
  testId: string;
  rials?: number;
  children: ReactNode;
}) {
  return (
    <Table.Tr>
      <Table.Td c="dimmed">{label}</Table.Td>
      <Table.Td fw={600} data-testid={testId} data-rials={rials}>
        {children}
      </Table.Td>
    </Table.Tr>
  );
}
