// The simulator gateway: delays of each step and the shares of the final statuses (normalized by
// the service, so they need not sum to 1), and the customers' replies (the share of delivered
// messages that get one, the share of those that opt out, the delay). Same seed, same outcomes.
// Numbers are typed in any digits; one out of range is said next to its field and the form is not saved.
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { FINAL_STATUSES, statusLabel } from '../../lib/status';
import { useLanguage } from '../../i18n/useLanguage';
import type { Simulator } from '../../api';
import { DEFAULT_REPLY_MS, MAX_SIMULATOR_DELAY_MS } from '../../../../shared/ipc/contracts/settings';
import { NumberField } from '../NumberField';

type Outcome = keyof Simulator['outcomes'];
/** The simulator's outcomes are the lifecycle's final statuses, in display order. */
const OUTCOMES: readonly Outcome[] = FINAL_STATUSES.map((s) => String(s) as Outcome);

export function SimulatorSettings() {
  const simulator = useStore(useStores().settings, (s) => s.simulator);
  return simulator ? <SimulatorForm key={JSON.stringify(simulator)} simulator={simulator} /> : null;
}

type Draft = Omit<Simulator, 'seed' | 'handoff_ms' | 'delivery_ms' | 'reply_share' | 'optout_share' | 'reply_ms'> & {
  seed: number | '';
  handoff_ms: number | '';
  delivery_ms: number | '';
  reply_share: number | '';
  optout_share: number | '';
  reply_ms: number | '';
};

const isDelay = (ms: number | '') => ms !== '' && Number.isInteger(ms) && ms >= 0 && ms <= MAX_SIMULATOR_DELAY_MS;
const isShare = (share: number | '') => share !== '' && share >= 0 && share <= 1;

function SimulatorForm({ simulator }: { simulator: Simulator }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const saveSimulator = useStore(useStores().settings, (s) => s.saveSimulator);
  // Settings stored before replies existed have none: shown as 0 (no replies), the delay as its default.
  const [draft, setDraft] = useState<Draft>({
    ...simulator,
    reply_share: simulator.reply_share ?? 0,
    optout_share: simulator.optout_share ?? 0,
    reply_ms: simulator.reply_ms ?? DEFAULT_REPLY_MS,
  });
  const shares = Object.values(draft.outcomes);
  const valid =
    Number.isSafeInteger(draft.seed) &&
    isDelay(draft.handoff_ms) &&
    isDelay(draft.delivery_ms) &&
    isShare(draft.reply_share) &&
    isShare(draft.optout_share) &&
    isDelay(draft.reply_ms) &&
    shares.every((share) => share >= 0) &&
    shares.some((share) => share > 0);
  return (
    <Paper withBorder p="md" maw={640}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (
            !valid ||
            draft.seed === '' ||
            draft.handoff_ms === '' ||
            draft.delivery_ms === '' ||
            draft.reply_share === '' ||
            draft.optout_share === '' ||
            draft.reply_ms === ''
          )
            return;
          const saved = await saveSimulator({
            ...draft,
            seed: draft.seed,
            handoff_ms: draft.handoff_ms,
            delivery_ms: draft.delivery_ms,
            reply_share: draft.reply_share,
            optout_share: draft.optout_share,
            reply_ms: draft.reply_ms,
          });
          if (saved) notifications.show({ color: 'teal', message: t('common.saved') });
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('settings.simulator.hint')}
          </Text>
          <SimpleGrid cols={3}>
            <NumberField
              label={t('settings.simulator.seed')}
              value={draft.seed}
              min={Number.MIN_SAFE_INTEGER}
              thousandSeparator={false}
              onChange={(seed) => setDraft({ ...draft, seed })}
              data-testid="simulator-seed"
            />
            <NumberField
              label={t('settings.simulator.handoff')}
              value={draft.handoff_ms}
              min={0}
              max={MAX_SIMULATOR_DELAY_MS}
              onChange={(handoff_ms) => setDraft({ ...draft, handoff_ms })}
              data-testid="simulator-handoff"
            />
            <NumberField
              label={t('settings.simulator.delivery')}
              value={draft.delivery_ms}
              min={0}
              max={MAX_SIMULATOR_DELAY_MS}
              onChange={(delivery_ms) => setDraft({ ...draft, delivery_ms })}
              data-testid="simulator-delivery"
            />
          </SimpleGrid>
          <Text fw={600} size="sm">
            {t('settings.simulator.outcomes')}
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {OUTCOMES.map((status) => (
              <NumberField
                key={status}
                label={statusLabel(Number(status), language)}
                styles={{
                  label: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '100%' },
                }}
                value={draft.outcomes[status] ?? 0}
                min={0}
                allowDecimal
                onChange={(share) =>
                  setDraft({ ...draft, outcomes: { ...draft.outcomes, [status]: share === '' ? 0 : share } })
                }
                data-testid={`simulator-share-${status}`}
              />
            ))}
          </SimpleGrid>
          <Text fw={600} size="sm">
            {t('simulatorReplies.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('simulatorReplies.hint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberField
              label={t('simulatorReplies.share')}
              value={draft.reply_share}
              min={0}
              max={1}
              allowDecimal
              onChange={(reply_share) => setDraft({ ...draft, reply_share })}
              data-testid="simulator-reply-share"
            />
            <NumberField
              label={t('simulatorReplies.optoutShare')}
              value={draft.optout_share}
              min={0}
              max={1}
              allowDecimal
              onChange={(optout_share) => setDraft({ ...draft, optout_share })}
              data-testid="simulator-optout-share"
            />
            <NumberField
              label={t('simulatorReplies.delay')}
              value={draft.reply_ms}
              min={0}
              max={MAX_SIMULATOR_DELAY_MS}
              onChange={(reply_ms) => setDraft({ ...draft, reply_ms })}
              data-testid="simulator-reply-delay"
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" disabled={!valid} data-testid="simulator-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
