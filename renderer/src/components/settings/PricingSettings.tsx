// Prices of the workspace: one SMS page and one messenger message, in tomans (the API answers
// costs in rials = tomans x 10).
import { Button, Group, NumberInput, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { Pricing } from '../../api';

export function PricingSettings() {
  const { pricing } = useStore(
    useStores().settings,
    useShallow((s) => ({ pricing: s.pricing })),
  );
  // Remount the form when the stored prices arrive or change, so it starts from them.
  return pricing ? <PricingForm key={JSON.stringify(pricing)} pricing={pricing} /> : null;
}

function PricingForm({ pricing }: { pricing: Pricing }) {
  const { t } = useTranslation();
  const { settings, compose } = useStores();
  const savePricing = useStore(settings, (s) => s.savePricing);
  const [draft, setDraft] = useState(pricing);
  return (
    <Paper withBorder p="md" maw={520}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (await savePricing(draft)) {
            notifications.show({ color: 'teal', message: t('common.saved') });
            void compose.getState().load(compose.getState().accountId);
          }
        }}
      >
        <Stack>
          <NumberInput
            label={t('settings.pricing.smsPage')}
            description={t('settings.pricing.inTomans')}
            value={draft.sms_page_tomans}
            min={0}
            onChange={(value) => setDraft({ ...draft, sms_page_tomans: Number(value) || 0 })}
            data-testid="pricing-sms"
          />
          <NumberInput
            label={t('settings.pricing.messenger')}
            description={t('settings.pricing.inTomans')}
            value={draft.messenger_message_tomans}
            min={0}
            onChange={(value) => setDraft({ ...draft, messenger_message_tomans: Number(value) || 0 })}
            data-testid="pricing-messenger"
          />
          <Text size="xs" c="dimmed">
            {t('settings.pricing.hint')}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" data-testid="pricing-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
