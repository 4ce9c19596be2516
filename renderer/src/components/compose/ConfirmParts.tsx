// The parts every "before it is sent" dialog shares (Compose's send, the Inbox's answer): a figure
// with its label, the second looks (a long message, the same text minutes ago) and, above the
// person's own limit, the send confirmed by typing its number of messages. Test ids start with the
// dialog's prefix (`confirm`, `reply-confirm`).
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCopy } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { useMoney } from '../Money';
import { NumberField } from '../NumberField';

export function Fact({
  label,
  value,
  testId,
  strongly = false,
  children,
}: {
  label: string;
  /** The figure for tests (data-value), whatever the language shows. */
  value: string | number | undefined;
  testId: string;
  strongly?: boolean;
  children: ReactNode;
}) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strongly ? 700 : 600} size={strongly ? 'lg' : 'md'} data-testid={testId} data-value={value}>
        {children}
      </Text>
    </Stack>
  );
}

/** Above the person's limit (Settings), a send is confirmed by typing its number of messages. */
export function useTypedConfirmation(messages: number, costRials: number | null) {
  const confirmAboveRials = useStore(useStores().preferences, (s) => s.confirmAboveRials);
  const [typed, setTyped] = useState<number | ''>('');
  const strong = costRials !== null && costRials > confirmAboveRials;
  return { strong, confirmed: !strong || typed === messages, typed, setTyped, confirmAboveRials };
}

export function TypedConfirmation({
  messages,
  confirmation,
  prefix,
}: {
  messages: number;
  confirmation: ReturnType<typeof useTypedConfirmation>;
  prefix: string;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const money = useMoney();
  const { strong, typed, setTyped, confirmAboveRials } = confirmation;
  if (!strong) return null;
  return (
    <Stack gap="xs" data-testid={`${prefix}-strong`}>
      <Text size="sm" fw={600}>
        {t('compose.confirm.strong', { limit: money.text(confirmAboveRials), n: formatNumber(messages, language) })}
      </Text>
      <NumberField
        label={t('compose.confirm.strongLabel')}
        value={typed}
        onChange={setTyped}
        min={0}
        w={220}
        data-testid={`${prefix}-strong-input`}
        error={
          typed !== '' && typed !== messages
            ? t('compose.confirm.strongMismatch', { n: formatNumber(messages, language) })
            : null
        }
      />
    </Stack>
  );
}

/** What deserves a second look: more pages than the person's warning, the same text minutes ago. */
export function SecondLooks({
  maxPages,
  recentDuplicate,
  prefix,
  children,
}: {
  maxPages: number;
  recentDuplicate: { overlap: number; at: number } | null;
  prefix: string;
  /** Said under the duplicate's sentence (Compose: a link to that send). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const warnAbovePages = useStore(useStores().preferences, (s) => s.warnAbovePages);
  return (
    <>
      {maxPages > warnAbovePages ? (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid={`${prefix}-many-pages`}>
          {t('compose.manyPages', {
            n: formatNumber(maxPages, language),
            limit: formatNumber(warnAbovePages, language),
          })}
        </Alert>
      ) : null}
      {recentDuplicate ? (
        <Alert
          color="orange"
          icon={<IconCopy size={18} />}
          data-testid={`${prefix}-recent-duplicate`}
          data-overlap={recentDuplicate.overlap}
        >
          <Stack gap={4}>
            <Text size="sm">
              {t('compose.confirm.recentDuplicate', {
                n: formatNumber(recentDuplicate.overlap, language),
                time: formatDateTime(recentDuplicate.at, language),
              })}
            </Text>
            {children}
          </Stack>
        </Alert>
      ) : null}
    </>
  );
}
