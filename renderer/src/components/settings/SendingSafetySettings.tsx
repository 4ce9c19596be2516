// The composer's two safety limits, the person's own (kept in their profile, lib/preferences.ts):
// above what cost a send is confirmed by typing its number of messages, and above how many pages
// a message is pointed out. A value takes effect as it is typed; an empty or out-of-range field
// keeps the last good one.
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { NumberField } from '../NumberField';
import { MoneyField } from '../MoneyField';

/** A page limit beyond any real text (a 10,000-character message is 150 pages). */
const MAX_PAGES = 1_000;

export function SendingSafetySettings() {
  const { t } = useTranslation();
  const { preferences } = useStores();
  const confirmAboveRials = useStore(preferences, (s) => s.confirmAboveRials);
  const warnAbovePages = useStore(preferences, (s) => s.warnAbovePages);
  return (
    <Paper withBorder p="md" maw={620} data-testid="settings-sending-safety">
      <Stack>
        <div>
          <Title order={4}>{t('safety.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('safety.description')}
          </Text>
        </div>
        <CostLimit
          value={confirmAboveRials}
          onChange={(value) => preferences.getState().set({ confirmAboveRials: value })}
        />
        <Limit
          label={t('safety.warnAbovePages')}
          description={t('safety.warnAbovePagesHint')}
          value={warnAbovePages}
          max={MAX_PAGES}
          onChange={(value) => preferences.getState().set({ warnAbovePages: value })}
          testId="safety-warn-pages"
        />
      </Stack>
    </Paper>
  );
}

/** The cost above which a send asks more, typed in the chosen unit and kept in rials. */
function CostLimit({ value, onChange }: { value: number; onChange(rials: number): void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState<number | ''>(value);
  return (
    <MoneyField
      label={(unit) => t('safety.confirmAbove', { unit })}
      description={t('safety.confirmAboveHint')}
      rials={typed}
      minRials={0}
      w={320}
      data-testid="safety-confirm-above"
      onChange={(next) => {
        setTyped(next);
        if (next !== '' && Number.isSafeInteger(next) && next >= 0) onChange(next);
      }}
      onBlur={() => setTyped(value)}
    />
  );
}

/** A whole number from 0 to `max`; kept only when it is one (the field says why otherwise). */
function Limit({
  label,
  description,
  value,
  max,
  onChange,
  testId,
}: {
  label: string;
  description: string;
  value: number;
  max: number;
  onChange(value: number): void;
  testId: string;
}) {
  // What is being typed, which may be empty or out of range for a moment.
  const [typed, setTyped] = useState<number | ''>(value);
  return (
    <NumberField
      label={label}
      description={description}
      value={typed}
      min={0}
      max={max}
      w={320}
      data-testid={testId}
      onChange={(next) => {
        setTyped(next);
        if (next !== '' && Number.isSafeInteger(next) && next >= 0 && next <= max) onChange(next);
      }}
      onBlur={() => setTyped(value)}
    />
  );
}
