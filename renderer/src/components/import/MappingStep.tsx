// Columns: for each column of the file, what it is: the mobile number (one; the detected one is
// marked), a {{NAME}} personalization field (upper case; clashing or empty names block Next), or
// skipped. The mapping of the last import of the same layout comes back by itself.
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { mappingProblems, type Role } from '../../stores/imports';
import { columnLetter } from './PreviewTable';
import { isolate } from '../../lib/format';

export function MappingStep() {
  const { t } = useTranslation();
  const { imports } = useStores();
  const { preview, roles, names, remembered, setRole, setName, goTo } = useStore(
    imports,
    useShallow((s) => ({
      preview: s.preview,
      roles: s.roles,
      names: s.names,
      remembered: s.remembered,
      setRole: s.setRole,
      setName: s.setName,
      goTo: s.goTo,
    })),
  );
  if (!preview) return null;
  const problems = mappingProblems(roles, names);
  const blocked = problems.noPhone || problems.badNames.length > 0 || problems.clashes.length > 0;
  const data = preview.rows.filter((row) => preview.header_row === null || row.row > preview.header_row);
  const clashNames = [...new Set(problems.clashes.map((i) => names[i]))].join('، ');
  return (
    <Stack gap="sm" data-testid="import-mapping">
      {remembered ? (
        <Alert color="teal" data-testid="import-remembered">
          {t('import.remembered')}
        </Alert>
      ) : null}
      <Paper withBorder>
        <ScrollArea.Autosize mah={440} type="auto">
          <Table verticalSpacing={6} stickyHeader ta="start">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('import.sample')}</Table.Th>
                <Table.Th>{t('import.role')}</Table.Th>
                <Table.Th>{t('import.fieldName')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.columns.map((column, i) => (
                <Table.Tr key={i} data-testid={`import-column-${i}`} data-role={roles[i]}>
                  <Table.Td maw={320}>
                    <Text size="sm" fw={600} truncate="end">
                      <Text span c="dimmed" size="xs" me={6}>
                        {columnLetter(i)}
                      </Text>
                      {preview.header_row !== null ? (
                        <bdi>{preview.rows.find((row) => row.row === preview.header_row)?.cells[i] || column}</bdi>
                      ) : null}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {data.slice(0, 3).map((row, n) => (
                        <span key={row.row}>
                          {n > 0 ? ' · ' : ''}
                          <bdi>{row.cells[i] ?? ''}</bdi>
                        </span>
                      ))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <SegmentedControl
                        size="xs"
                        value={roles[i] ?? 'skip'}
                        onChange={(role) => setRole(i, role as Role)}
                        data={(['phone', 'field', 'skip'] as const).map((role) => ({
                          value: role,
                          label: t(`import.roles.${role}`),
                        }))}
                        data-testid={`import-role-${i}`}
                      />
                      {i === preview.phone_column ? (
                        <Badge color="teal" variant="light">
                          {t('import.detected')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {roles[i] === 'field' ? (
                      <Stack gap={2}>
                        <TextInput
                          size="xs"
                          value={names[i] ?? ''}
                          onChange={(event) => setName(i, event.currentTarget.value)}
                          error={
                            problems.badNames.includes(i)
                              ? t('import.badNameShort')
                              : problems.clashes.includes(i)
                                ? t('import.clashShort')
                                : undefined
                          }
                          aria-label={t('import.fieldName')}
                          dir="auto"
                          w={200}
                          data-testid={`import-name-${i}`}
                        />
                        <Text size="xs" c="dimmed">
                          {t('import.placeholder', { name: isolate(`{{${names[i] ?? ''}}}`) })}
                        </Text>
                      </Stack>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      </Paper>
      {problems.noPhone ? (
        <Alert color="orange" data-testid="import-mapping-no-phone">
          {t('import.noPhone')}
        </Alert>
      ) : null}
      {problems.badNames.length > 0 ? (
        <Alert color="orange" data-testid="import-mapping-bad-name">
          {t('import.badName')}
        </Alert>
      ) : null}
      {problems.clashes.length > 0 ? (
        <Alert color="orange" data-testid="import-mapping-clash">
          {t('import.clash', { names: clashNames })}
        </Alert>
      ) : null}
      <Group justify="space-between">
        <Button variant="default" onClick={() => goTo('layout')}>
          {t('import.back')}
        </Button>
        <Button onClick={() => goTo('target')} disabled={blocked} data-testid="import-next">
          {t('import.next')}
        </Button>
      </Group>
    </Stack>
  );
}
