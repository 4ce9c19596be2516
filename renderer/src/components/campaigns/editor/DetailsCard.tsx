// Name, sender line and the template. The template's placeholders are offered from the inclusion
// segments' columns (the quote's list), put in at the cursor; each placeholder some recipients
// have no value for is said with how many.
import { Alert, Group, Paper, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { campaignLines } from '../../../stores/campaignEditor';
import { counted, digits } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { useTextDirection } from '../../../lib/direction';
import { useEditor, type BodyInsert } from './useEditor';
import { ColumnChips } from '../../ColumnChips';

export function DetailsCard({ bodyRef, insert }: Pick<BodyInsert, 'insert'> & { bodyRef: BodyInsert['ref'] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { name, sender, template, lines, quote, update, ready } = useEditor(
    useShallow((s) => ({
      name: s.fields.name,
      sender: s.fields.sender,
      template: s.fields.template_body,
      lines: s.lines,
      quote: s.quote,
      update: s.update,
      ready: s.status === 'ready' && s.created === null,
    })),
  );
  const nameDirection = useTextDirection(name);
  const bodyDirection = useTextDirection(template);
  const usable = campaignLines(lines);
  // A draft may name a line that lost its permission: it stays listed so the choice shows.
  const options = usable.map((l) => ({
    value: l.number,
    label: `${digits(l.number, language)} · ${t(`provider.${l.provider}`)}`,
  }));
  if (sender !== '' && !usable.some((l) => l.number === sender))
    options.push({ value: sender, label: digits(sender, language) });
  const columns = quote?.columns ?? [];
  const warnings = (quote?.placeholders ?? []).filter((p) => !p.known || p.missing > 0);

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>{t('campaignEditor.details')}</Title>
        <TextInput
          label={t('campaignEditor.name')}
          description={t('campaignEditor.nameHint')}
          placeholder={t('campaignEditor.namePlaceholder')}
          value={name}
          onChange={(event) => update({ name: event.currentTarget.value })}
          disabled={!ready}
          maxLength={200}
          dir={nameDirection}
          data-testid="editor-name"
        />
        <Select
          label={t('campaignEditor.sender')}
          placeholder={t('campaignEditor.senderPlaceholder')}
          data={options}
          value={sender === '' ? null : sender}
          onChange={(value) => update({ sender: value ?? '' })}
          allowDeselect={false}
          disabled={!ready}
          data-testid="editor-sender"
        />
        {lines.length > 0 && usable.length === 0 ? (
          <Alert color="orange" data-testid="editor-no-lines">
            {t('campaignEditor.noLines')}
          </Alert>
        ) : null}
        <Textarea
          ref={bodyRef}
          label={t('campaignEditor.body')}
          placeholder={t('campaignEditor.bodyPlaceholder', { column: '{{NAME}}' })}
          value={template}
          onChange={(event) => update({ template_body: event.currentTarget.value })}
          disabled={!ready}
          autosize
          minRows={5}
          maxRows={16}
          maxLength={10_000}
          // The text's own direction decides (a Latin text in the Persian UI reads left to right,
          // a Persian one that starts with {{NAME}} right to left).
          dir={bodyDirection}
          data-testid="editor-body"
        />
        <ColumnChips
          columns={columns}
          insert={insert}
          label={t('campaignEditor.columns')}
          hint={t('campaignEditor.columnsHint')}
          testIdPrefix="editor-column"
          disabled={!ready}
        />
        {warnings.length > 0 ? (
          <Stack gap={4} data-testid="editor-placeholder-warnings">
            {warnings.map((p) => (
              <Group key={p.name} gap={6} wrap="nowrap" align="start" data-testid={`editor-placeholder-${p.name}`}>
                <IconAlertTriangle size={16} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} />
                <Text size="sm" c="orange.8">
                  {p.known
                    ? t('campaignEditor.missingValues', {
                        ...counted(p.missing, language),
                        placeholder: `{{${p.name}}}`,
                      })
                    : t('campaignEditor.unknownPlaceholder', { placeholder: `{{${p.name}}}` })}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
