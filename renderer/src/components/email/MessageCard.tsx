// The message: who it is from (and where replies go), the subject, and the body as HTML and/or
// plain text. The segment's columns are chips that put `{{COLUMN}}` where the cursor was, in the
// field last written in; variables that match no column are said once the core has looked.
import { Group, Paper, SimpleGrid, Stack, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCode, IconFileText } from '@tabler/icons-react';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { emailSelectors, type DraftFields } from '../../stores/email';
import { isEmail } from '../../../../shared/email';
import { isolate } from '../../lib/format';
import { useTextDirection } from '../../lib/direction';
import { ColumnChips } from '../ColumnChips';

type Written = 'subject' | 'text' | 'html';
type Field = HTMLInputElement | HTMLTextAreaElement;

export function MessageCard() {
  const { t } = useTranslation();
  const { email } = useStores();
  const fields = useStore(email, (s) => s.fields);
  const setFields = useStore(email, (s) => s.setFields);
  const [tab, setTab] = useState<'html' | 'text'>('html');
  const fromNameDirection = useTextDirection(fields.fromName);
  const subjectDirection = useTextDirection(fields.subject);
  const textDirection = useTextDirection(fields.text);
  const subjectRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const htmlRef = useRef<HTMLTextAreaElement>(null);
  // The chips write into the field last written in (the body shown, until another was focused).
  const last = useRef<Written | null>(null);
  const insert = useCallback(
    (inserted: string) => {
      const target: Written = last.current === 'subject' ? 'subject' : tab;
      const element: Field | null = (target === 'subject' ? subjectRef : target === 'text' ? textRef : htmlRef).current;
      const value = email.getState().fields[target];
      // The field keeps its selection after losing focus to the chip that was clicked.
      const from = Math.min(element?.selectionStart ?? value.length, value.length);
      const to = Math.min(element?.selectionEnd ?? from, value.length);
      email
        .getState()
        .setFields({ [target]: value.slice(0, from) + inserted + value.slice(to) } as Partial<DraftFields>);
      const caret = from + inserted.length;
      requestAnimationFrame(() => {
        element?.focus();
        element?.setSelectionRange(caret, caret);
      });
    },
    [email, tab],
  );
  const badAddress = (value: string) =>
    value.trim() !== '' && !isEmail(value) ? t('email.message.invalidAddress') : null;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('email.message.title')}</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('email.message.fromEmail')}
            placeholder="news@example.com"
            required
            dir="ltr"
            value={fields.fromEmail}
            onChange={(event) => setFields({ fromEmail: event.currentTarget.value })}
            error={badAddress(fields.fromEmail)}
            data-testid="email-from-email"
          />
          <TextInput
            label={t('email.message.fromName')}
            placeholder={t('email.message.fromNamePlaceholder')}
            dir={fromNameDirection}
            value={fields.fromName}
            onChange={(event) => setFields({ fromName: event.currentTarget.value })}
            data-testid="email-from-name"
          />
        </SimpleGrid>
        <TextInput
          label={t('email.message.replyTo')}
          description={t('email.message.replyToHint')}
          dir="ltr"
          value={fields.replyTo}
          onChange={(event) => setFields({ replyTo: event.currentTarget.value })}
          error={badAddress(fields.replyTo)}
          data-testid="email-reply-to"
        />
        <TextInput
          ref={subjectRef}
          label={t('email.message.subject')}
          required
          dir={subjectDirection}
          value={fields.subject}
          onFocus={() => (last.current = 'subject')}
          onChange={(event) => setFields({ subject: event.currentTarget.value })}
          data-testid="email-subject"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('email.message.body')}
          </Text>
          <Tabs value={tab} onChange={(value) => value && setTab(value as 'html' | 'text')} keepMounted>
            <Tabs.List>
              <Tabs.Tab value="html" leftSection={<IconCode size={14} />} data-testid="email-tab-html">
                {t('email.message.html')}
                {fields.html.trim() ? ' •' : ''}
              </Tabs.Tab>
              <Tabs.Tab value="text" leftSection={<IconFileText size={14} />} data-testid="email-tab-text">
                {t('email.message.text')}
                {fields.text.trim() ? ' •' : ''}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="html" pt="xs">
              <Textarea
                ref={htmlRef}
                aria-label={t('email.message.html')}
                placeholder={t('email.message.htmlPlaceholder')}
                autosize
                minRows={8}
                maxRows={18}
                dir="ltr"
                spellCheck={false}
                value={fields.html}
                onFocus={() => (last.current = 'html')}
                onChange={(event) => setFields({ html: event.currentTarget.value })}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
                data-testid="email-html"
              />
            </Tabs.Panel>
            <Tabs.Panel value="text" pt="xs">
              <Textarea
                ref={textRef}
                aria-label={t('email.message.text')}
                placeholder={t('email.message.textPlaceholder')}
                autosize
                minRows={8}
                maxRows={18}
                dir={textDirection}
                value={fields.text}
                onFocus={() => (last.current = 'text')}
                onChange={(event) => setFields({ text: event.currentTarget.value })}
                data-testid="email-text"
              />
            </Tabs.Panel>
          </Tabs>
          <Text size="xs" c="dimmed">
            {t('email.message.bodyHint')}
          </Text>
        </Stack>
        <Columns insert={insert} />
        <UnknownVariables />
      </Stack>
    </Paper>
  );
}

/** The chosen segment's columns (as the core read them, else as the list says). */
function Columns({ insert }: { insert: (text: string) => void }) {
  const { t } = useTranslation();
  const { email } = useStores();
  const columns = useStore(
    email,
    useShallow((s) => emailSelectors.currentPreview(s)?.columns ?? emailSelectors.segment(s)?.columns ?? []),
  );
  return (
    <ColumnChips
      columns={columns}
      insert={insert}
      label={t('email.message.columns')}
      hint={t('email.message.columnsHint')}
      testIdPrefix="email-column"
    />
  );
}

const NONE: string[] = [];

/** What the core's last preview says of the variables; it stands while typing, so it does not blink. */
function UnknownVariables() {
  const { t } = useTranslation();
  const { email } = useStores();
  const unknown = useStore(email, (s) => (s.fields.segmentId === null ? NONE : (s.preview?.unknown_variables ?? NONE)));
  if (unknown.length === 0) return null;
  return (
    <Stack gap={4} data-testid="email-unknown-variables">
      {unknown.map((name) => (
        <Group key={name} gap={6} wrap="nowrap" align="start" data-testid={`email-unknown-${name}`}>
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} />
          <Text size="sm" c="orange.8">
            {t('email.message.unknownVariable', { variable: isolate(`{{${name}}}`) })}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
