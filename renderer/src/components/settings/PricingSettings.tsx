// Prices of the workspace: one SMS page and one messenger message, in tomans (the API answers
// costs in rials = tomans x 10). A price is from 0 to MAX_PRICE_TOMANS (shared/credit.ts): one
// outside is refused with a message, never clamped, so "Saved" always means the prices shown.
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { MAX_PRICE_TOMANS } from '../../../../shared/credit';
import type { Pricing } from '../../api';
import { NumberField } from '../NumberField';

export function PricingSettings() {
  const { pricing } = useStore(
    useStores().settings,
    useShallow((s) => ({ pricing: s.pricing })),
  );
  // Remount the form when the stored prices arrive or change, so it starts from them.
  return pricing ? <PricingForm key={JSON.stringify(pricing)} pricing={pricing} /> : null;
}

type Draft = { [K in keyof Pricing]: number | '' };

const inRange = (price: number | '') => price !== '' && price >= 0 && price <= MAX_PRICE_TOMANS;

function PricingForm({ pricing }: { pricing: Pricing }) {
  const { t } = useTranslation();
  const { settings, compose } = useStores();
  const savePricing = useStore(settings, (s) => s.savePricing);
  const [draft, setDraft] = useState<Draft>(pricing);
  const [refused, setRefused] = useState<string | null>(null);
  const valid = inRange(draft.sms_page_tomans) && inRange(draft.messenger_message_tomans);
  const field = (key: keyof Pricing) => ({
    value: draft[key],
    onChange: (value: number | '') => {
      setDraft({ ...draft, [key]: value });
      setRefused(null);
    },
    min: 0,
    max: MAX_PRICE_TOMANS,
    allowDecimal: true,
    description: t('settings.pricing.inTomans'),
  });
  return (
    <Paper withBorder p="md" maw={520}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (draft.sms_page_tomans === '' || draft.messenger_message_tomans === '' || !valid) return;
          const why = await savePricing({
            sms_page_tomans: draft.sms_page_tomans,
            messenger_message_tomans: draft.messenger_message_tomans,
          });
          setRefused(why);
          if (why === null) {
            notifications.show({ color: 'teal', message: t('common.saved') });
            void compose.getState().load(compose.getState().accountId);
          }
        }}
      >
        <Stack>
          <NumberField label={t('settings.pricing.smsPage')} {...field('sms_page_tomans')} data-testid="pricing-sms" />
          <NumberField
            label={t('settings.pricing.messenger')}
            {...field('messenger_message_tomans')}
            data-testid="pricing-messenger"
          />
          <Text size="xs" c="dimmed">
            {t('settings.pricing.hint')}
          </Text>
          {refused !== null ? (
            <Text size="sm" c="red" data-testid="pricing-refused">
              {refused}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" disabled={!valid} data-testid="pricing-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
