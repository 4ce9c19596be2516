// The simulator gateway: delays of each step and the shares of the final statuses (normalized by
// the service, so they need not sum to 1). Same seed, same outcomes.
import { Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { FINAL_STATUSES, statusLabel } from '../../lib/status';
import { useLanguage } from '../../i18n/useLanguage';
import type { Simulator } from '../../api';

type Outcome = keyof Simulator['outcomes'];
/** The simulator's outcomes are the lifecycle's final statuses, in display order. */
const OUTCOMES: readonly Outcome[] = FINAL_STATUSES.map((s) => String(s) as Outcome);

export function SimulatorSettings() {
  const simulator = useStore(useStores().settings, (s) => s.simulator);
  return simulator ? <SimulatorForm key={JSON.stringify(simulator)} simulator={simulator} /> : null;
}

function SimulatorForm({ simulator }: { simulator: Simulator }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const saveSimulator = useStore(useStores().settings, (s) => s.saveSimulator);
  const [draft, setDraft] = useState(simulator);
  const number = (value: number | string) => Math.max(0, Math.round(Number(value) || 0));
  return (
    <Paper withBorder p="md" maw={640}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (await saveSimulator(draft)) notifications.show({ color: 'teal', message: t('common.saved') });
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('settings.simulator.hint')}
          </Text>
          <SimpleGrid cols={3}>
            <NumberInput
              label={t('settings.simulator.seed')}
              value={draft.seed}
              onChange={(v) => setDraft({ ...draft, seed: Math.round(Number(v) || 0) })}
            />
            <NumberInput
              label={t('settings.simulator.handoff')}
              value={draft.handoff_ms}
              min={0}
              onChange={(v) => setDraft({ ...draft, handoff_ms: number(v) })}
              data-testid="simulator-handoff"
            />
            <NumberInput
              label={t('settings.simulator.delivery')}
              value={draft.delivery_ms}
              min={0}
              onChange={(v) => setDraft({ ...draft, delivery_ms: number(v) })}
              data-testid="simulator-delivery"
            />
          </SimpleGrid>
          <Text fw={600} size="sm">
            {t('settings.simulator.outcomes')}
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {OUTCOMES.map((status) => (
              <NumberInput
                key={status}
                label={statusLabel(Number(status), language)}
                styles={{
                  label: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '100%' },
                }}
                value={draft.outcomes[status] ?? 0}
                min={0}
                step={0.01}
                decimalScale={3}
                onChange={(v) =>
                  setDraft({ ...draft, outcomes: { ...draft.outcomes, [status]: Math.max(0, Number(v) || 0) } })
                }
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" data-testid="simulator-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
