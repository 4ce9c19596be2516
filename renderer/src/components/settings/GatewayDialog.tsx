// "Gateway of line …": who delivers a line's messages (the simulator, or the business's provider
// account), with the provider's address, API key, the line's number there and the calls per
// second, and a test of the connection (the provider's credit, or its code and words). The key is
// written once and never shown again: the field starts empty, an empty field keeps the kept key,
// "Remove key" sends '' on save. What the core forgets by itself (the key, when the provider or its
// address changes) is said before saving. The test asks with the saved settings, so a changed form
// is saved first ("Save and test").
import { Alert, Anchor, Button, Group, Modal, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import type { Line } from '../../api';
import type { ConnectionTest } from '../../../../shared/ipc/contracts/gateways';
import { GATEWAYS, isUpstream, MAX_RATE_PER_SECOND, type GatewayKind } from '../../../../shared/gateways';
import { digits } from '../../lib/format';
import { explanationOf, gatewayName, gatewaysFor, gatewayTitle } from '../../lib/gateways';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';
import { NumberField } from '../NumberField';

type TestOutcome = { test: ConnectionTest } | { refused: string };

export function GatewayDialog({ line, onClose }: { line: Line | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={line !== null}
      onClose={onClose}
      title={line ? t('gateways.dialog.title', { number: line.number }) : ''}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {/* Mounted per opening: each starts from the line as saved, with no key typed. */}
      {line ? <GatewayForm key={line.id} lineId={line.id} onClose={onClose} /> : null}
    </Modal>
  );
}

/** An address as the core keeps it, near enough to tell whether it changed (no trailing slash). */
function sameAddress(typed: string, saved: string | null): boolean {
  return typed.trim().replace(/\/+$/, '') === (saved ?? '');
}

function GatewayForm({ lineId, onClose }: { lineId: number; onClose(): void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { settings, gateways, compose } = useStores();
  const line = useStore(settings, (s) => s.lines.find((l) => l.id === lineId));
  const saved = line?.gateway;
  const [kind, setKind] = useState<GatewayKind>(saved?.kind ?? 'simulator');
  const [baseUrl, setBaseUrl] = useState(saved?.base_url ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [sender, setSender] = useState(saved?.sender ?? '');
  const [rate, setRate] = useState<number | ''>(saved?.rate_per_second ?? '');
  const [refused, setRefused] = useState<string | null>(null);
  const [working, setWorking] = useState<'save' | 'test' | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  if (!line || !saved) return null;

  const upstream = isUpstream(kind);
  const info = GATEWAYS[kind];
  const moved = kind !== saved.kind || (upstream && !sameAddress(baseUrl, saved.base_url));
  const dirty =
    kind !== saved.kind ||
    (upstream &&
      (!sameAddress(baseUrl, saved.base_url) ||
        sender.trim() !== (saved.sender ?? '') ||
        rate !== saved.rate_per_second ||
        apiKey !== '' ||
        removeKey));
  const rateValid = !upstream || (rate !== '' && rate > 0 && rate <= MAX_RATE_PER_SECOND);
  // The core forgets a kept key given for another provider or address, and on the simulator.
  const keyForgotten = saved.key_set && moved && apiKey === '' && !removeKey;

  const edited = (change: () => void) => {
    change();
    setRefused(null);
    setOutcome(null);
  };

  /** Saves the form; true when saved. The form then starts again from the line as saved. */
  const save = async (): Promise<boolean> => {
    const why = await settings.getState().setGateway(
      upstream
        ? {
            number: line.number,
            kind,
            base_url: baseUrl.trim(),
            sender: sender.trim(),
            ...(rate === '' ? {} : { rate_per_second: rate }),
            ...(removeKey ? { api_key: '' } : apiKey !== '' ? { api_key: apiKey } : {}),
          }
        : { number: line.number, kind },
    );
    setRefused(why);
    if (why !== null) return false;
    const now = settings.getState().lines.find((l) => l.id === lineId)?.gateway;
    setApiKey('');
    setRemoveKey(false);
    if (now) {
      setBaseUrl(now.base_url ?? '');
      setSender(now.sender ?? '');
      setRate(now.rate_per_second);
    }
    // Who delivers changed for the banner, the queues and the confirmations (the composer's lines too).
    void gateways.getState().refresh();
    void compose.getState().load(compose.getState().accountId);
    notifications.show({ color: 'teal', message: t('gateways.dialog.saved', { number: line.number }) });
    return true;
  };

  const onSave = async () => {
    setWorking('save');
    const ok = await save();
    setWorking(null);
    if (ok) onClose();
  };

  const onTest = async () => {
    setWorking('test');
    setOutcome(null);
    if (!dirty || (await save())) {
      setOutcome(await settings.getState().testGateway(line.number));
      // The test may have resumed a line paused for credit (credit again at the provider).
      void gateways.getState().refresh();
    }
    setWorking(null);
  };

  return (
    <Stack data-testid="gateway-dialog" data-number={line.number}>
      <Select
        label={t('gateways.dialog.kind')}
        data={gatewaysFor(line.provider).map((k) => ({ value: k, label: gatewayTitle(k, language) }))}
        value={kind}
        allowDeselect={false}
        onChange={(value) => value && edited(() => setKind(value as GatewayKind))}
        description={t(`gateways.kindHint.${kind}`)}
        comboboxProps={{ withinPortal: true }}
        data-testid="gateway-kind"
      />
      {upstream ? (
        <>
          <TextInput
            label={t('gateways.dialog.baseUrl')}
            description={t('gateways.dialog.baseUrlHint')}
            placeholder={info.defaultBaseUrl ?? ''}
            value={baseUrl}
            onChange={(event) => {
              const value = event.currentTarget.value;
              edited(() => setBaseUrl(value));
            }}
            dir="ltr"
            maxLength={500}
            data-testid="gateway-base-url"
          />
          <Stack gap={4}>
            <PasswordInput
              label={t('gateways.dialog.apiKey')}
              description={t('gateways.dialog.apiKeyHint')}
              value={apiKey}
              onChange={(event) => {
                const value = event.currentTarget.value;
                edited(() => {
                  setApiKey(value);
                  if (value !== '') setRemoveKey(false);
                });
              }}
              disabled={removeKey}
              // Never offered for saving by the browser, never filled from its store.
              autoComplete="new-password"
              dir="ltr"
              maxLength={500}
              data-testid="gateway-key"
            />
            <KeyState
              keySet={saved.key_set}
              typed={apiKey !== ''}
              removeKey={removeKey}
              forgotten={keyForgotten}
              onRemove={(remove) => edited(() => setRemoveKey(remove))}
            />
          </Stack>
          <Group grow align="start">
            <TextInput
              label={t('gateways.dialog.sender')}
              description={t('gateways.dialog.senderHint')}
              placeholder={line.number}
              value={sender}
              onChange={(event) => {
                const value = event.currentTarget.value;
                edited(() => setSender(value));
              }}
              dir="ltr"
              maxLength={100}
              data-testid="gateway-sender"
            />
            <NumberField
              label={t('gateways.dialog.rate')}
              description={t('gateways.dialog.rateHint')}
              value={rate}
              onChange={(value) => edited(() => setRate(value))}
              min={0.1}
              max={MAX_RATE_PER_SECOND}
              allowDecimal
              data-testid="gateway-rate"
            />
          </Group>
        </>
      ) : saved.key_set ? (
        <Text size="sm" c="orange.8" data-testid="gateway-key-state" data-state="forgotten">
          {t('gateways.dialog.keyForgottenSimulator')}
        </Text>
      ) : null}
      {refused !== null ? (
        <Alert color="red" data-testid="gateway-refused">
          {refused}
        </Alert>
      ) : null}
      {outcome ? <TestResult outcome={outcome} kind={kind} /> : null}
      <Group justify="space-between">
        {upstream ? (
          <Stack gap={2} align="flex-start">
            <Button
              variant="light"
              onClick={() => void onTest()}
              loading={working === 'test'}
              disabled={working !== null || !rateValid}
              data-testid="gateway-test"
            >
              {dirty ? t('gateways.dialog.saveAndTest') : t('gateways.dialog.test')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('gateways.dialog.testUsesSaved')}
            </Text>
          </Stack>
        ) : (
          <span />
        )}
        <Group gap="xs">
          <Button variant="default" onClick={onClose} disabled={working !== null} data-testid="gateway-cancel">
            {dirty ? t('common.cancel') : t('common.close')}
          </Button>
          <Button
            onClick={() => void onSave()}
            loading={working === 'save'}
            disabled={!dirty || working !== null || !rateValid}
            data-testid="gateway-save"
          >
            {t('gateways.dialog.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** What happens to the kept key on save, with the action that changes it. */
function KeyState({
  keySet,
  typed,
  removeKey,
  forgotten,
  onRemove,
}: {
  keySet: boolean;
  typed: boolean;
  removeKey: boolean;
  forgotten: boolean;
  onRemove(remove: boolean): void;
}) {
  const { t } = useTranslation();
  if (typed) return null;
  if (removeKey)
    return (
      <Text size="sm" c="orange.8" data-testid="gateway-key-state" data-state="removing">
        {t('gateways.dialog.keyRemoving')}{' '}
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => onRemove(false)}
          data-testid="gateway-keep-key"
        >
          {t('gateways.dialog.keepKey')}
        </Anchor>
      </Text>
    );
  if (forgotten)
    return (
      <Text size="sm" c="orange.8" data-testid="gateway-key-state" data-state="forgotten">
        {t('gateways.dialog.keyForgotten')}
      </Text>
    );
  if (keySet)
    return (
      <Text size="sm" c="teal.8" data-testid="gateway-key-state" data-state="kept">
        {t('gateways.dialog.keyKept')}{' '}
        <Anchor
          component="button"
          type="button"
          size="sm"
          c="red"
          onClick={() => onRemove(true)}
          data-testid="gateway-remove-key"
        >
          {t('gateways.dialog.removeKey')}
        </Anchor>
      </Text>
    );
  return (
    <Text size="sm" c="dimmed" data-testid="gateway-key-state" data-state="missing">
      {t('gateways.dialog.keyMissing')}
    </Text>
  );
}

/** The provider's answer to the connection test: its credit, or its code, words and what to do. */
function TestResult({ outcome, kind }: { outcome: TestOutcome; kind: GatewayKind }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const provider = gatewayName(kind, language);
  if ('refused' in outcome)
    return (
      <Alert color="red" data-testid="gateway-test-result" data-ok="false">
        {outcome.refused}
      </Alert>
    );
  const { ok, credit_rials, code, detail } = outcome.test;
  if (ok)
    return (
      <Alert
        color="teal"
        icon={<IconCircleCheck size={20} />}
        data-testid="gateway-test-result"
        data-ok="true"
        data-credit={credit_rials ?? ''}
      >
        {credit_rials === null ? (
          t('gateways.dialog.testOkNoCredit', { provider })
        ) : (
          <>
            {t('gateways.dialog.testOk', { provider })}{' '}
            <Text component="span" fw={700} inherit data-testid="gateway-test-credit">
              <Money rials={credit_rials} />
            </Text>
          </>
        )}
      </Alert>
    );
  return (
    <Alert
      color="red"
      icon={<IconPlugConnectedX size={20} />}
      data-testid="gateway-test-result"
      data-ok="false"
      data-code={code ?? ''}
    >
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {code === null
            ? t('gateways.dialog.testUnreachable', { provider })
            : t('gateways.dialog.testRefused', { provider, code: digits(code, language) })}
        </Text>
        <Text size="sm">
          {code === null ? t('gateways.explain.unreachable') : t(`gateways.explain.${explanationOf(code)}`)}
        </Text>
        {detail ? (
          <Text size="sm" c="dimmed">
            {t('gateways.dialog.providerSaid')} <bdi dir="auto">{detail}</bdi>
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
