// Sender line and text of the draft. A line the core refuses for the panel (its quote answers
// 412) is said right under the picker. The chosen segment's columns are offered as `{{NAME}}`
// placeholders put in at the cursor (the core fills them per receiver, as campaigns do); the
// core's quote says which placeholder matches no column, who lacks a value, and `{NAME}` written
// with single braces.
import { Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { ColumnChips } from '../ColumnChips';
import { useStores } from '../../stores/context';
import { sendableLines } from '../../stores/compose';
import { digits, formatNumber, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { useTextDirection } from '../../lib/direction';

const PHONE_NUMBER = 'PHONE_NUMBER';

export function DraftForm() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { compose } = useStores();
  const { lines, lineNumber, lineRefused, text, setLine, setText } = useStore(
    compose,
    useShallow((s) => ({
      lines: s.lines,
      lineNumber: s.lineNumber,
      lineRefused: s.lineRefused,
      text: s.text,
      setLine: s.setLine,
      setText: s.setText,
    })),
  );
  const direction = useTextDirection(text);
  const ref = useRef<HTMLTextAreaElement | null>(null);
  const insert = useCallback(
    (inserted: string) => {
      const body = compose.getState().text;
      const element = ref.current;
      // The textarea keeps its selection after losing focus to the chip that was clicked.
      const from = Math.min(element?.selectionStart ?? body.length, body.length);
      const to = Math.min(element?.selectionEnd ?? from, body.length);
      compose.getState().setText(body.slice(0, from) + inserted + body.slice(to));
      const caret = from + inserted.length;
      requestAnimationFrame(() => {
        element?.focus();
        element?.setSelectionRange(caret, caret);
      });
    },
    [compose],
  );
  return (
    <Paper withBorder p="md">
      <Stack>
        <Select
          label={t('compose.line')}
          placeholder={t('compose.linePlaceholder')}
          data-testid="compose-line"
          allowDeselect={false}
          data={sendableLines(lines).map((l) => ({
            value: l.number,
            label: `${digits(l.number, language)} · ${t(`provider.${l.provider}`)}`,
          }))}
          value={lineNumber}
          onChange={setLine}
          error={lineRefused ? <span data-testid="compose-line-refused">{t('compose.lineRefused')}</span> : null}
        />
        <Textarea
          ref={ref}
          label={t('compose.text')}
          placeholder={t('compose.textPlaceholder')}
          autosize
          minRows={4}
          maxRows={12}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          data-testid="compose-text"
          // The text's own direction decides (a Latin text in the Persian UI reads left to right,
          // a Persian one that starts with {{NAME}} right to left).
          dir={direction}
        />
        <Columns insert={insert} />
        <PlaceholderWarnings />
      </Stack>
    </Paper>
  );
}

/** The chosen segment's columns and PHONE_NUMBER, each a chip that puts `{{NAME}}` in the text. */
function Columns({ insert }: { insert: (text: string) => void }) {
  const { t } = useTranslation();
  const { compose } = useStores();
  const columns = useStore(
    compose,
    useShallow((s) => [...(s.segments.find((segment) => segment.id === s.segmentId)?.columns ?? []), PHONE_NUMBER]),
  );
  return (
    <ColumnChips
      columns={columns}
      insert={insert}
      label={t('compose.columns')}
      hint={t('compose.columnsHint')}
      testIdPrefix="compose-column"
      labelOf={(column) => (column === PHONE_NUMBER ? t('compose.phoneColumn') : <bdi dir="auto">{column}</bdi>)}
    />
  );
}

/**
 * What the core's last quote says of the placeholders. The last answer stands while typing, so a
 * warning does not blink on each keystroke; it follows the text once typing pauses.
 */
function PlaceholderWarnings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { compose } = useStores();
  const { placeholders, singleBraces } = useStore(
    compose,
    useShallow((s) => ({
      placeholders: s.quote?.placeholders ?? NONE,
      singleBraces: s.quote?.single_braces ?? NO_NAMES,
    })),
  );
  const warnings = placeholders.filter((p) => !p.known || p.missing > 0);
  if (warnings.length === 0 && singleBraces.length === 0) return null;
  return (
    <Stack gap={4} data-testid="compose-placeholder-warnings">
      {singleBraces.map((name) => (
        <Warning key={`single-${name}`} testId={`compose-single-brace-${name}`}>
          {t('compose.singleBrace', { written: isolate(`{${name}}`), meant: isolate(`{{${name}}}`) })}
        </Warning>
      ))}
      {warnings.map((p) => (
        <Warning key={p.name} testId={`compose-placeholder-${p.name}`} missing={p.missing}>
          {p.known
            ? t('compose.missingValues', {
                placeholder: isolate(`{{${p.name}}}`),
                n: formatNumber(p.missing, language),
              })
            : t('compose.unknownPlaceholder', { placeholder: isolate(`{{${p.name}}}`) })}
        </Warning>
      ))}
    </Stack>
  );
}

const NONE: Array<{ name: string; known: boolean; missing: number }> = [];
const NO_NAMES: string[] = [];

function Warning({ children, testId, missing }: { children: React.ReactNode; testId: string; missing?: number }) {
  return (
    <Group gap={6} wrap="nowrap" align="start" data-testid={testId} data-missing={missing}>
      <IconAlertTriangle size={16} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} />
      <Text size="sm" c="orange.8">
        {children}
      </Text>
    </Group>
  );
}
