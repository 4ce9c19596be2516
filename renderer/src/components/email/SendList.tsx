// The account's email sends, newest first: subject, segment, when, state and how far it got. A
// row opens the send's results. Pushes keep the counts moving while the list is open.
import { Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconMail, IconPencil } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { finishedOf } from '../../stores/email';
import { counted, formatDateTime, formatNumber, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { EmptyState } from '../EmptyState';
import { navigate } from '../useRoute';
import { CountBadges, CountsBar, SendStateBadge } from './EmailStatus';

export function SendList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { email } = useStores();
  const { sends, loaded, accountId, loadSends } = useStore(
    email,
    useShallow((s) => ({ sends: s.sends, loaded: s.sendsLoaded, accountId: s.accountId, loadSends: s.loadSends })),
  );
  useEffect(() => {
    void loadSends();
  }, [loadSends, accountId]);
  if (!loaded && sends.length === 0) return <Loader size="sm" m="xl" />;
  if (sends.length === 0)
    return (
      <EmptyState
        testId="email-sends-empty"
        icon={<IconMail size={28} />}
        title={t('email.sends.empty')}
        hint={t('email.sends.emptyHint')}
        action={
          <Button
            leftSection={<IconPencil size={16} />}
            onClick={() => navigate('email')}
            data-testid="email-sends-new"
          >
            {t('email.sends.new')}
          </Button>
        }
      />
    );
  return (
    <Stack gap="xs" data-testid="email-sends">
      {sends.map((send) => (
        <Paper
          key={send.id}
          withBorder
          p="sm"
          component="a"
          href={`#/email/send/${send.id}`}
          onClick={(event: React.MouseEvent) => {
            event.preventDefault();
            navigate(`email/send/${send.id}`);
          }}
          style={{ display: 'block', color: 'inherit', textDecoration: 'none' }}
          data-testid="email-send-row"
          data-id={send.id}
          data-state={send.state}
        >
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} truncate dir="auto" data-testid="email-send-subject">
                {send.subject}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="email-send-time">
                  {formatDateTime(send.created_at, language)}
                </Text>
                <SendStateBadge state={send.state} />
              </Group>
            </Group>
            <Text size="sm" c="dimmed">
              {t('email.sends.toSegment', {
                ...counted(send.total, language),
                segment: isolate(send.segment_name),
                done: formatNumber(finishedOf(send), language),
              })}
            </Text>
            <CountsBar send={send} />
            <CountBadges send={send} size="xs" />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
