// "Send a test to my number": the first recipient's text sent now to the user's own phone, after
// a confirmation of what it costs (it is a real, charged message). The answer shows what was sent.
import { Alert, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { toAsciiDigits } from '../../../../../shared/digits';
import { useStores } from '../../../stores/context';
import { phoneText } from '../../../lib/format';
import { Money } from '../../Money';
import { useEditor } from './useEditor';
import { useFaultText } from './useFaultText';
import { Delivery } from '../../gateways/Delivery';
import { useLanguage } from '../../../i18n/useLanguage';

export function TestCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { session } = useStores();
  const describe = useFaultText();
  const { sender, body, sample, testing, result, error, sendTest, ready, gateway } = useEditor(
    useShallow((s) => ({
      sender: s.fields.sender,
      body: s.fields.template_body,
      sample: s.quote?.samples.find((x) => x.kind === 'first') ?? null,
      testing: s.testing,
      result: s.testResult,
      error: s.testError,
      sendTest: s.sendTest,
      ready: s.status === 'ready' && s.created === null,
      gateway: s.lines.find((line) => line.number === s.fields.sender)?.gateway.kind,
    })),
  );
  const [phone, setPhone] = useState('');
  const [confirming, setConfirming] = useState(false);
  const receptor = toAsciiDigits(phone).trim();
  const canTest = ready && !testing && receptor !== '' && sender !== '' && body.trim() !== '';

  const send = async () => {
    setConfirming(false);
    if (await sendTest(receptor)) void session.getState().refreshAccounts();
  };

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('campaignEditor.test.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('campaignEditor.test.hint')}
        </Text>
        <Group align="end" gap="xs">
          <TextInput
            label={t('campaignEditor.test.phone')}
            placeholder="0912…"
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            inputMode="tel"
            dir="ltr"
            style={{ flex: 1 }}
            maxLength={40}
            disabled={!ready}
            data-testid="editor-test-phone"
          />
          <Button
            variant="light"
            leftSection={<IconSend size={16} />}
            onClick={() => setConfirming(true)}
            disabled={!canTest}
            loading={testing}
            data-testid="editor-test-send"
          >
            {t('campaignEditor.test.send')}
          </Button>
        </Group>
        {result ? (
          <Alert color="teal" data-testid="editor-test-result">
            <Stack gap={4}>
              <Text size="sm">
                {t('campaignEditor.test.sent', { phone: phoneText(result.receptor, language) })}{' '}
                <Money rials={result.cost_rials} />
              </Text>
              <Text size="sm" className="final-text" dir="auto" data-testid="editor-test-text">
                {result.text}
              </Text>
            </Stack>
          </Alert>
        ) : null}
        {error ? (
          <Alert color="red" data-testid="editor-test-error">
            {describe(error)}
          </Alert>
        ) : null}
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('campaignEditor.test.confirmTitle')}
        centered
      >
        <Stack>
          <Text data-testid="editor-test-summary">
            {t('campaignEditor.test.confirmBody', {
              phone: phoneText(receptor, language),
              line: phoneText(sender, language),
            })}{' '}
            {sample ? (
              <>
                {t('campaignEditor.test.about')} <Money rials={sample.cost_rials} />
              </>
            ) : (
              t('campaignEditor.test.costUnknown')
            )}
          </Text>
          <Text size="sm">
            {t('gateways.confirm.delivery')}: <Delivery sender={sender} kind={gateway} testId="editor-test-gateway" />
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void send()} data-testid="editor-test-confirm">
              {t('campaignEditor.test.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
