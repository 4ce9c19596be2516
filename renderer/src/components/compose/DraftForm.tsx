// Sender line and text of the draft. A line the core refuses for the panel (its quote answers
// 412) is said right under the picker.
import { Paper, Select, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { sendableLines } from '../../stores/compose';

export function DraftForm() {
  const { t } = useTranslation();
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
            label: `${l.number} · ${t(`provider.${l.provider}`)}`,
          }))}
          value={lineNumber}
          onChange={setLine}
          error={lineRefused ? <span data-testid="compose-line-refused">{t('compose.lineRefused')}</span> : null}
        />
        <Textarea
          label={t('compose.text')}
          placeholder={t('compose.textPlaceholder')}
          autosize
          minRows={4}
          maxRows={12}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          data-testid="compose-text"
          // The text's own direction decides (a Latin text in the Persian UI reads left to right).
          dir="auto"
        />
      </Stack>
    </Paper>
  );
}
