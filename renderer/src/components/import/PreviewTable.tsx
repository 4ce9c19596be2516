// The file's first rows as they are, with the sheet's row numbers: the header row marked, the
// phone column in green. Compact and of bounded height, so the step's buttons stay on screen.
import { Badge, Group, ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportPreview } from '../../stores/imports';
import { digits } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';

/** A, B, ... Z, AA, AB: the column's letter as spreadsheets name it. */
export function columnLetter(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const CELL = { maxWidth: 260, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

export function PreviewTable({
  preview,
  phone,
  maxHeight = 330,
}: {
  preview: ImportPreview;
  phone: number | null;
  maxHeight?: number;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const width = Math.max(preview.columns.length, ...preview.rows.map((row) => row.cells.length));
  const header = preview.header_row;
  return (
    <ScrollArea.Autosize mah={maxHeight} type="auto" offsetScrollbars>
      <Table
        withTableBorder
        withColumnBorders
        stickyHeader
        fz="sm"
        verticalSpacing={4}
        ta="start"
        data-testid="import-preview"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={110}>{t('import.row')}</Table.Th>
            {Array.from({ length: width }, (_, i) => (
              <Table.Th
                key={i}
                c={i === phone ? 'teal.8' : undefined}
                bg={i === phone ? 'teal.0' : undefined}
                data-phone={i === phone || undefined}
              >
                {columnLetter(i)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.rows.map((row) => {
            const isHeader = row.row === header;
            // Rows above the header (titles, notes) are read neither as a header nor as contacts.
            const above = header !== null && row.row < header;
            return (
              <Table.Tr
                key={row.row}
                data-testid="import-preview-row"
                data-row={row.row}
                data-header={isHeader || undefined}
                bg={isHeader ? 'blue.0' : undefined}
                c={above ? 'dimmed' : undefined}
                fw={isHeader ? 700 : undefined}
              >
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {digits(row.row, language)}
                    </Text>
                    {isHeader ? (
                      <Badge size="xs" variant="light" color="blue">
                        {t('import.headerBadge')}
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                {Array.from({ length: width }, (_, i) => (
                  <Table.Td key={i} style={CELL} bg={i === phone && !isHeader && !above ? 'teal.0' : undefined}>
                    <bdi>{row.cells[i] ?? ''}</bdi>
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
