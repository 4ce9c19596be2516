// Sheet & header: which sheet (a workbook with several), the encoding and delimiter found (a
// text file), the header row; each change reads the preview again.
import { Alert, Button, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { digits, formatBytes, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { ENCODINGS } from '../../../../shared/contacts';
import { PreviewTable } from './PreviewTable';

const DELIMITERS: Array<[string, string | null]> = [
  [',', 'comma'],
  [';', 'semicolon'],
  ['\t', 'tab'],
  ['|', 'pipe'],
  ['\u060c', 'arabicComma'],
  ['\u061b', 'arabicSemicolon'],
];
const NO_HEADER = 'none';

/** The delimiters offered, with the one the service found if it is none of them. */
function delimiterChoices(found: string | null): Array<[string, string | null]> {
  return found === null || DELIMITERS.some(([value]) => value === found) ? DELIMITERS : [...DELIMITERS, [found, null]];
}

export function LayoutStep() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports } = useStores();
  const { preview, source, previewing, setChoice, goTo, reset } = useStore(
    imports,
    useShallow((s) => ({
      preview: s.preview,
      source: s.source,
      previewing: s.previewing,
      setChoice: s.setChoice,
      goTo: s.goTo,
      reset: s.reset,
    })),
  );
  if (!preview || !source) return <Loader size="sm" />;
  return (
    <Stack gap="sm" data-testid="import-layout">
      <Group gap="xs">
        <Text fw={600} data-testid="import-file-name">
          {t('import.file', { name: isolate(preview.file_name) })}
        </Text>
        <Text size="sm" c="dimmed">
          {formatBytes(preview.file_bytes, language)}
        </Text>
        {previewing ? <Loader size="xs" /> : null}
      </Group>
      <Group gap="md" align="flex-end">
        {preview.format === 'xlsx' ? (
          <Select
            label={t('import.sheet')}
            data={preview.sheets}
            value={preview.sheet}
            onChange={(sheet) => sheet && void setChoice({ sheet })}
            allowDeselect={false}
            data-testid="import-sheet"
            w={200}
          />
        ) : (
          <>
            <Select
              label={t('import.encoding')}
              data={ENCODINGS.map((value) => ({ value, label: t(`import.encodings.${value}`) }))}
              value={preview.encoding ?? 'auto'}
              onChange={(encoding) => encoding && void setChoice({ encoding: encoding as (typeof ENCODINGS)[number] })}
              allowDeselect={false}
              data-testid="import-encoding"
              w={230}
            />
            <Select
              label={t('import.delimiter')}
              data={delimiterChoices(preview.delimiter).map(([value, name]) => ({
                value,
                label: name ? t(`import.delimiters.${name}`) : value,
              }))}
              value={preview.delimiter}
              onChange={(delimiter) => delimiter && void setChoice({ delimiter })}
              allowDeselect={false}
              data-testid="import-delimiter"
              w={200}
            />
          </>
        )}
        <Select
          label={t('import.headerRow')}
          data={[
            { value: NO_HEADER, label: t('import.noHeader') },
            ...preview.rows.map((row) => ({
              value: String(row.row),
              label: t('import.rowN', { n: digits(row.row, language) }),
            })),
          ]}
          value={preview.header_row === null ? NO_HEADER : String(preview.header_row)}
          onChange={(value) => value && void setChoice({ header_row: value === NO_HEADER ? null : Number(value) })}
          allowDeselect={false}
          data-testid="import-header-row"
          w={180}
        />
      </Group>
      {preview.phone_column === null ? (
        <Alert color="orange" data-testid="import-no-phone-found">
          {t('import.noPhoneFound')}
        </Alert>
      ) : null}
      <Text size="xs" c="dimmed">
        {t('import.previewHint')}
      </Text>
      <PreviewTable preview={preview} phone={preview.phone_column} />
      <Group justify="space-between">
        <Button variant="default" onClick={reset} data-testid="import-back">
          {t('import.back')}
        </Button>
        <Button onClick={() => goTo('mapping')} disabled={previewing} data-testid="import-next">
          {t('import.next')}
        </Button>
      </Group>
    </Stack>
  );
}
