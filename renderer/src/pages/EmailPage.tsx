// Email: write one email for a segment and send it (#/email), the sends made so far (#/email/sends)
// and one send's results (#/email/send/12), each at its own address so a reload keeps the user there.
import { Grid, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconList, IconPencil } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { navigate, useSubPath } from '../components/useRoute';
import { useStores } from '../stores/context';
import { RecipientsCard } from '../components/email/RecipientsCard';
import { MessageCard } from '../components/email/MessageCard';
import { PreviewCard } from '../components/email/PreviewCard';
import { SendPanel } from '../components/email/SendPanel';
import { SendList } from '../components/email/SendList';
import { SendResults } from '../components/email/SendResults';

export function EmailPage() {
  const { t } = useTranslation();
  const path = useSubPath();
  useEmailErrors();
  const send = /^send\/(\d+)$/.exec(path);
  if (send)
    return (
      <Stack data-testid="page-email">
        <SendResults key={send[1]} sendId={Number(send[1])} />
      </Stack>
    );
  const tab = path === 'sends' ? 'sends' : 'compose';
  return (
    <Stack data-testid="page-email" gap="md">
      <Stack gap={2}>
        <Title order={2}>{t('email.title')}</Title>
        <Text size="sm" c="dimmed" maw={720}>
          {t('email.hint')}
        </Text>
      </Stack>
      <Tabs value={tab} onChange={(value) => navigate(value === 'sends' ? 'email/sends' : 'email')}>
        <Tabs.List>
          <Tabs.Tab value="compose" leftSection={<IconPencil size={16} />} data-testid="email-tab-compose">
            {t('email.tabs.compose')}
          </Tabs.Tab>
          <Tabs.Tab value="sends" leftSection={<IconList size={16} />} data-testid="email-tab-sends">
            {t('email.tabs.sends')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'sends' ? <SendList /> : <Composer />}
    </Stack>
  );
}

function Composer() {
  const { email } = useStores();
  // Segments imported since the account was loaded are offered too.
  useEffect(() => {
    void email.getState().refreshSegments();
  }, [email]);
  return (
    <Grid gutter="md" data-testid="email-composer">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack>
          <RecipientsCard />
          <MessageCard />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack>
          <PreviewCard />
          <SendPanel />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** The store's refusals (a list or a send that could not be read, a cancel refused), shown once each. */
function useEmailErrors() {
  const { t } = useTranslation();
  const error = useStore(useStores().email, (s) => s.error);
  useEffect(() => {
    if (error) notifications.show({ id: error, color: 'red', title: t('common.error'), message: error });
  }, [error, t]);
}
