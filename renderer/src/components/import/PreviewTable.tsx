// The file's first rows as they are, with the sheet's row numbers: the header row in bold, the
// phone column in green.
import { ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportPreview } from '../../stores/imports';
import { digits } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';

export function PreviewTable({
  preview,
  phone,
  maxRows = 12,
}: {
  preview: ImportPreview;
  phone: number | null;
  maxRows?: number;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const width = Math.max(preview.columns.length, ...preview.rows.map((row) => row.cells.length));
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table withTableBorder withColumnBorders striped fz="sm" data-testid="import-preview">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={60}>{t('import.row')}</Table.Th>
            {Array.from({ length: width }, (_, i) => (
              <Table.Th key={i} c={i === phone ? 'teal.8' : undefined}>
                {String.fromCharCode(65 + (i % 26))}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.rows.slice(0, maxRows).map((row) => {
            const header = row.row === preview.header_row;
            return (
              <Table.Tr
                key={row.row}
                data-testid="import-preview-row"
                data-row={row.row}
                data-header={header || undefined}
                style={header ? { fontWeight: 700, background: 'var(--mantine-color-gray-1)' } : undefined}
              >
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {digits(row.row, language)}
                  </Text>
                </Table.Td>
                {Array.from({ length: width }, (_, i) => (
                  <Table.Td
                    key={i}
                    dir="auto"
                    style={i === phone && !header ? { background: 'var(--mantine-color-teal-0)' } : undefined}
                  >
                    {row.cells[i] ?? ''}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
