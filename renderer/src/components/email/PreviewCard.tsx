// Each recipient's email as it will go out, one at a time: who it is to, the subject and body with
// their own values in place (rendered by the core, with the rule the provider uses), the HTML shown
// sanitized in a sandboxed frame.
import { ActionIcon, Alert, Group, Loader, Paper, Stack, Tabs, Text, Title, useDirection } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconMailOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { emailSelectors } from '../../stores/email';
import { refusalText } from '../../stores/errors';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { SafeHtmlFrame } from './SafeHtmlFrame';
import { DirectedText } from '../DirectedText';
import { useTextDirection } from '../../lib/direction';

export function PreviewCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { dir } = useDirection();
  const { email } = useStores();
  const { index, previewing, segmentId, showRecipient } = useStore(
    email,
    useShallow((s) => ({
      index: s.previewIndex,
      previewing: s.previewing,
      segmentId: s.fields.segmentId,
      showRecipient: s.showRecipient,
    })),
  );
  const preview = useStore(email, emailSelectors.currentPreview);
  // A segment without an EMAIL column is said, with what to do, by the recipients card.
  const said = useStore(email, (s) => (emailSelectors.noEmailColumn(s) ? null : emailSelectors.currentPreviewError(s)));
  const reason = useStore(email, (s) => s.previewReason);
  // Said in the language of now, not of when it was asked: a switch of language re-renders this.
  const error = said === null ? null : ((reason ? refusalText({ code: null, reason }) : null) ?? said);
  // The last answer stays in view while the next is asked (no blink on each keystroke).
  const shown = useStore(email, (s) => (s.fields.segmentId === null ? null : s.preview));
  const [tab, setTab] = useState<'html' | 'text'>('html');
  const sample = shown?.samples[0] ?? null;
  const textDirection = useTextDirection(sample?.text);
  const body = sample
    ? tab === 'html' && sample.html === null
      ? 'text'
      : tab === 'text' && sample.text === null
        ? 'html'
        : tab
    : tab;
  // "Previous" points to where the page starts.
  const [Back, Forward] = dir === 'rtl' ? [IconChevronRight, IconChevronLeft] : [IconChevronLeft, IconChevronRight];
  return (
    <Paper withBorder p="md" data-testid="email-preview">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Title order={4}>{t('email.preview.title')}</Title>
            {previewing ? <Loader size="xs" /> : null}
          </Group>
          {shown && shown.valid > 0 ? (
            <Group gap={4} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={t('email.preview.previous')}
                disabled={index === 0 || preview === null}
                onClick={() => void showRecipient(index - 1)}
                data-testid="email-preview-previous"
              >
                <Back size={18} />
              </ActionIcon>
              <Text size="sm" data-testid="email-preview-position" data-index={index} data-valid={shown.valid}>
                {t('email.preview.position', {
                  n: formatNumber(index + 1, language),
                  total: formatNumber(shown.valid, language),
                })}
              </Text>
              <ActionIcon
                variant="subtle"
                aria-label={t('email.preview.next')}
                disabled={index >= shown.valid - 1 || preview === null}
                onClick={() => void showRecipient(index + 1)}
                data-testid="email-preview-next"
              >
                <Forward size={18} />
              </ActionIcon>
            </Group>
          ) : null}
        </Group>
        {error ? (
          <Alert color="gray" data-testid="email-preview-error">
            {error}
          </Alert>
        ) : null}
        {segmentId === null ? (
          <Text size="sm" c="dimmed" data-testid="email-preview-empty">
            {t('email.preview.empty')}
          </Text>
        ) : shown && shown.valid === 0 ? (
          <Group gap="xs" data-testid="email-preview-nobody">
            <IconMailOff size={18} color="var(--mantine-color-gray-6)" />
            <Text size="sm" c="dimmed">
              {t('email.preview.nobody')}
            </Text>
          </Group>
        ) : sample ? (
          <Stack gap="xs" data-testid="email-preview-sample" data-row={sample.row} data-email={sample.email}>
            <Field label={t('email.preview.to')} testId="email-preview-to">
              <bdi dir="ltr">{sample.name ? `${sample.name} <${sample.email}>` : sample.email}</bdi>
            </Field>
            <Field label={t('email.preview.subject')} testId="email-preview-subject">
              <DirectedText text={sample.subject} />
            </Field>
            <Tabs value={body} onChange={(value) => value && setTab(value as 'html' | 'text')}>
              <Tabs.List>
                <Tabs.Tab value="html" disabled={sample.html === null} data-testid="email-preview-tab-html">
                  {t('email.message.html')}
                </Tabs.Tab>
                <Tabs.Tab value="text" disabled={sample.text === null} data-testid="email-preview-tab-text">
                  {t('email.message.text')}
                </Tabs.Tab>
              </Tabs.List>
            </Tabs>
            {body === 'html' && sample.html !== null ? (
              <SafeHtmlFrame html={sample.html} title={t('email.preview.frameTitle')} />
            ) : sample.text !== null ? (
              <Paper bg="gray.0" p="sm" radius="sm" mah={360} style={{ overflow: 'auto' }}>
                <Text
                  size="sm"
                  dir={textDirection}
                  data-user-text
                  style={{ whiteSpace: 'pre-wrap' }}
                  data-testid="email-preview-text"
                >
                  {sample.text}
                </Text>
              </Paper>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Field({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={70} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}
