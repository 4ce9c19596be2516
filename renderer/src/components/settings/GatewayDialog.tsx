// "Gateway of line …": who delivers a line's messages (the simulator, or the business's provider
// account), with each kind's own fields as the table in lib/gateways.ts says (their labels and hints
// in the provider's own words: `gateways.fields.<kind>`), the calls per second, and a test of the
// connection (the provider's credit, or its code and words). An HTTP gateway's address is a URL
// template with placeholders (chips insert them), and its request has a method, a POST's body and
// type, and a success pattern. The key is written once and never shown again: the field starts
// empty, an empty field keeps the kept key, "Remove key" sends '' on save. What the core forgets by
// itself (the key, when the provider or its address changes) is said before saving. The test asks
// with the saved settings, so a changed form is saved first ("Save and test").
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Input,
  Modal,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import type { Line } from '../../api';
import type { ConnectionTest } from '../../../../shared/ipc/contracts/gateways';
import {
  GATEWAY_TEMPLATE_FIELDS,
  GATEWAYS,
  isUpstream,
  MAX_RATE_PER_SECOND,
  type GatewayKind,
} from '../../../../shared/gateways';
import { digits, formatNumber, phoneText } from '../../lib/format';
import {
  CONTENT_TYPES,
  contentTypeChoice,
  explanationOf,
  formChanged,
  formOf,
  formProblem,
  gatewayFields,
  gatewayInputOf,
  gatewayName,
  gatewaysFor,
  gatewayTitle,
  insertAt,
  keyForgottenOnSave,
  type ContentTypeChoice,
  type GatewayForm as Form,
} from '../../lib/gateways';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';
import { NumberField } from '../NumberField';

type TestOutcome = { test: ConnectionTest } | { refused: string };

/**
 * Technical fields (addresses, keys, numbers at the provider) are written left to right and start at
 * the left in either language (Mantine aligns a field to the right in Persian whatever its `dir`).
 */
const LTR_FIELD = { input: { textAlign: 'left' as const } };
/** Templates and patterns also in a monospace font: the field only, its label and hint as the rest. */
const MONOSPACE = { input: { textAlign: 'left' as const, fontFamily: 'var(--mantine-font-family-monospace)' } };

/** Kannel's sendsms as an address template: the example the HTTP gateway's hint shows. */
export const KANNEL_EXAMPLE =
  'http://127.0.0.1:13013/cgi-bin/sendsms?username=…&password={key}&from={from}&to={to}&text={text}&dlr-mask=3&dlr-url={report}';

export function GatewayDialog({ line, onClose }: { line: Line | null; onClose(): void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Modal
      opened={line !== null}
      onClose={onClose}
      title={line ? t('gateways.dialog.title', { number: phoneText(line.number, language) }) : ''}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {/* Mounted per opening: each starts from the line as saved, with no key typed. */}
      {line ? <GatewayForm key={line.id} lineId={line.id} onClose={onClose} /> : null}
    </Modal>
  );
}

function GatewayForm({ lineId, onClose }: { lineId: number; onClose(): void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { settings, gateways, compose } = useStores();
  const line = useStore(settings, (s) => s.lines.find((l) => l.id === lineId));
  const saved = line?.gateway;
  const [form, setForm] = useState<Form | null>(() => (saved ? formOf(saved) : null));
  const [refused, setRefused] = useState<string | null>(null);
  const [working, setWorking] = useState<'save' | 'test' | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const addressRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  if (!line || !saved || !form) return null;

  const { kind } = form;
  const upstream = isUpstream(kind);
  const fields = gatewayFields(kind);
  const provider = gatewayTitle(kind, language);
  const dirty = formChanged(form, saved);
  const problem = formProblem(form);
  const keyForgotten = keyForgottenOnSave(form, saved);
  const text = (name: string) => t(`gateways.fields.${kind}.${name}`);

  const edit = (change: Partial<Form>) => {
    setForm((now) => now && { ...now, ...change });
    setRefused(null);
    setOutcome(null);
  };

  /** Saves the form; true when saved. The form then starts again from the line as saved. */
  const save = async (): Promise<boolean> => {
    const why = await settings.getState().setGateway(gatewayInputOf(line.number, form));
    setRefused(why);
    if (why !== null) return false;
    const now = settings.getState().lines.find((l) => l.id === lineId)?.gateway;
    if (now) setForm(formOf(now));
    // Who delivers changed for the banner, the queues and the confirmations (the composer's lines too).
    void gateways.getState().refresh();
    void compose.getState().load(compose.getState().accountId);
    notifications.show({
      color: 'teal',
      message: t('gateways.dialog.saved', { number: phoneText(line.number, language) }),
    });
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
    <Stack data-testid="gateway-dialog" data-number={line.number} data-kind={kind}>
      <Select
        label={t('gateways.dialog.kind')}
        data={gatewaysFor(line.provider).map((k) => ({ value: k, label: gatewayTitle(k, language) }))}
        value={kind}
        allowDeselect={false}
        onChange={(value) => value && edit({ kind: value as GatewayKind })}
        description={t(`gateways.kindHint.${kind}`)}
        comboboxProps={{ withinPortal: true }}
        data-testid="gateway-kind"
      />
      {upstream && fields ? (
        <>
          {fields.address === 'template' ? (
            <Stack gap={6}>
              <TextInput
                ref={addressRef}
                label={text('baseUrl')}
                description={<TemplateHint />}
                placeholder="https://…/send?to={to}&text={text}"
                value={form.baseUrl}
                onChange={(event) => edit({ baseUrl: event.currentTarget.value })}
                dir="ltr"
                styles={MONOSPACE}
                maxLength={500}
                required
                data-testid="gateway-base-url"
              />
              <PlaceholderChips
                target={addressRef}
                value={form.baseUrl}
                onChange={(baseUrl) => edit({ baseUrl })}
                testId="gateway-url-insert"
              />
            </Stack>
          ) : (
            <TextInput
              label={t('gateways.dialog.baseUrl', { provider })}
              description={t('gateways.dialog.baseUrlHint', { provider })}
              placeholder={GATEWAYS[kind].defaultBaseUrl ?? ''}
              value={form.baseUrl}
              onChange={(event) => edit({ baseUrl: event.currentTarget.value })}
              dir="ltr"
              styles={LTR_FIELD}
              maxLength={500}
              data-testid="gateway-base-url"
            />
          )}
          <Stack gap={4}>
            <PasswordInput
              label={text('key')}
              description={`${text('keyHint')} ${t('gateways.dialog.keySecret')}`}
              value={form.apiKey}
              onChange={(event) => {
                const value = event.currentTarget.value;
                edit({ apiKey: value, ...(value !== '' ? { removeKey: false } : {}) });
              }}
              disabled={form.removeKey}
              // Left to right with its eye button too (in Persian the button would sit on the text).
              styles={{ wrapper: { direction: 'ltr' } }}
              // Never offered for saving by the browser, never filled from its store.
              autoComplete="new-password"
              dir="ltr"
              maxLength={500}
              data-testid="gateway-key"
            />
            <KeyState
              keySet={saved.key_set}
              typed={form.apiKey !== ''}
              removeKey={form.removeKey}
              forgotten={keyForgotten}
              onRemove={(removeKey) => edit({ removeKey })}
            />
          </Stack>
          <Group grow align="start">
            <TextInput
              label={text('sender')}
              description={text('senderHint')}
              placeholder={line.number}
              value={form.sender}
              onChange={(event) => edit({ sender: event.currentTarget.value })}
              dir="ltr"
              styles={LTR_FIELD}
              maxLength={100}
              data-testid="gateway-sender"
            />
            <NumberField
              label={t('gateways.dialog.rate')}
              description={t('gateways.dialog.rateHint')}
              value={form.rate}
              onChange={(rate) => edit({ rate })}
              min={0.1}
              max={MAX_RATE_PER_SECOND}
              allowDecimal
              data-testid="gateway-rate"
            />
          </Group>
          {fields.request ? <RequestFields form={form} edit={edit} bodyRef={bodyRef} /> : null}
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
              disabled={working !== null || problem !== null}
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
            disabled={!dirty || working !== null || problem !== null}
            data-testid="gateway-save"
          >
            {t('gateways.dialog.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** The address template's hint: what each placeholder stands for, and Kannel's sendsms as the example. */
function TemplateHint() {
  const { t } = useTranslation();
  return (
    <Stack gap={4} component="span" data-testid="gateway-template-hint">
      <span>{t('gateways.fields.http-gateway.baseUrlHint')}</span>
      <span>{t('gateways.request.reportNote')}</span>
      <span>{t('gateways.request.example')}</span>
      <Code
        block
        dir="ltr"
        component="span"
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', textAlign: 'left' }}
        data-testid="gateway-template-example"
      >
        {KANNEL_EXAMPLE}
      </Code>
    </Stack>
  );
}

/** Buttons that put a placeholder where the caret is in a field (at its end when it is not focused). */
function PlaceholderChips({
  target,
  value,
  onChange,
  testId,
}: {
  target: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  value: string;
  onChange(value: string): void;
  testId: string;
}) {
  const { t } = useTranslation();
  const insert = (placeholder: string) => {
    const field = target.current;
    const focused = field !== null && document.activeElement === field;
    const start = focused ? (field.selectionStart ?? value.length) : value.length;
    const end = focused ? (field.selectionEnd ?? value.length) : value.length;
    const next = insertAt(value, start, end, placeholder);
    onChange(next.value);
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(next.caret, next.caret);
    });
  };
  return (
    <Group gap={6} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {t('gateways.request.insert')}
      </Text>
      {GATEWAY_TEMPLATE_FIELDS.map((field) => (
        <Tooltip key={field} label={t(`gateways.placeholders.${field}`)} withArrow>
          <Button
            size="compact-xs"
            variant="light"
            ff="monospace"
            dir="ltr"
            // The field keeps its focus and selection: the placeholder goes where the caret is.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => insert(`{${field}}`)}
            data-testid={`${testId}-${field}`}
          >
            {`{${field}}`}
          </Button>
        </Tooltip>
      ))}
    </Group>
  );
}

/** An HTTP gateway's request beyond its address: the method, a POST's body and type, the success pattern. */
function RequestFields({
  form,
  edit,
  bodyRef,
}: {
  form: Form;
  edit(change: Partial<Form>): void;
  bodyRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const { t } = useTranslation();
  const choice: ContentTypeChoice = form.customType ? 'custom' : contentTypeChoice(form.contentType);
  const choices: ContentTypeChoice[] = [...(Object.keys(CONTENT_TYPES) as ContentTypeChoice[]), 'custom'];
  return (
    <Stack gap="sm" data-testid="gateway-request">
      <Input.Wrapper label={t('gateways.request.method')} description={t('gateways.request.methodHint')}>
        <SegmentedControl
          display="flex"
          w="fit-content"
          mt={4}
          data={['GET', 'POST']}
          value={form.method}
          onChange={(method) => edit({ method: method as Form['method'] })}
          data-testid="gateway-method"
        />
      </Input.Wrapper>
      {form.method === 'POST' ? (
        <>
          <Stack gap={6}>
            <Textarea
              ref={bodyRef}
              label={t('gateways.request.body')}
              description={t('gateways.request.bodyHint')}
              placeholder={'{"to": "{to}", "from": "{from}", "text": "{text}", "password": "{key}"}'}
              value={form.body}
              onChange={(event) => edit({ body: event.currentTarget.value })}
              autosize
              minRows={3}
              maxRows={10}
              maxLength={4_000}
              dir="ltr"
              styles={MONOSPACE}
              spellCheck={false}
              data-testid="gateway-body"
            />
            <PlaceholderChips
              target={bodyRef}
              value={form.body}
              onChange={(body) => edit({ body })}
              testId="gateway-body-insert"
            />
          </Stack>
          <Group grow align="start">
            <Select
              label={t('gateways.request.contentType')}
              description={t('gateways.request.contentTypeHint')}
              data={choices.map((value) => ({ value, label: t(`gateways.request.contentTypes.${value}`) }))}
              value={choice}
              allowDeselect={false}
              onChange={(value) =>
                value === 'custom'
                  ? edit({ customType: true })
                  : value &&
                    edit({ customType: false, contentType: CONTENT_TYPES[value as keyof typeof CONTENT_TYPES] })
              }
              comboboxProps={{ withinPortal: true }}
              data-testid="gateway-content-type"
            />
            {choice === 'custom' ? (
              <TextInput
                label={t('gateways.request.customType')}
                description={t('gateways.request.customTypeHint')}
                placeholder="application/json; charset=utf-8"
                value={form.contentType}
                onChange={(event) => edit({ contentType: event.currentTarget.value })}
                error={form.contentType.trim() === '' ? t('gateways.request.customTypeMissing') : undefined}
                dir="ltr"
                styles={MONOSPACE}
                maxLength={100}
                data-testid="gateway-custom-type"
              />
            ) : null}
          </Group>
        </>
      ) : null}
      <TextInput
        label={t('gateways.request.success')}
        description={t('gateways.request.successHint')}
        placeholder={'^0: Accepted|"status":\\s*"ok"'}
        value={form.success}
        onChange={(event) => edit({ success: event.currentTarget.value })}
        dir="ltr"
        styles={MONOSPACE}
        maxLength={300}
        spellCheck={false}
        data-testid="gateway-success"
      />
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
  const providerCredit = outcome.test.provider_credit ?? null;
  if (ok)
    return (
      <Alert
        color="teal"
        icon={<IconCircleCheck size={20} />}
        data-testid="gateway-test-result"
        data-ok="true"
        data-credit={credit_rials ?? ''}
        data-provider-credit={providerCredit ?? ''}
      >
        {providerCredit !== null ? (
          // In the provider's own unit (SMS.ir's is not documented as rials): the number as it says it.
          <>
            {t('gateways.dialog.testOk', { provider })}{' '}
            <Text component="span" fw={700} inherit data-testid="gateway-test-credit">
              <bdi dir="ltr">{formatNumber(providerCredit, language, 2)}</bdi>
            </Text>{' '}
            {t('gateways.dialog.ownUnit', { provider })}
          </>
        ) : credit_rials !== null ? (
          <>
            {t('gateways.dialog.testOk', { provider })}{' '}
            <Text component="span" fw={700} inherit data-testid="gateway-test-credit">
              <Money rials={credit_rials} />
            </Text>
          </>
        ) : (
          t('gateways.dialog.testOkNoCredit', { provider })
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
            : // The sentence starts with the name: "An HTTP gateway answered 404."
              t('gateways.dialog.testRefused', {
                provider: gatewayTitle(kind, language),
                code: digits(code, language),
              })}
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
