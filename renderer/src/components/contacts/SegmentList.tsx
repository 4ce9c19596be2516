// The account's segments: size, columns, where they came from, when; search, open, rename,
// delete (after saying what goes with it), and union / difference into a new segment.
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Loader,
  Menu,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconAddressBook,
  IconArrowsJoin,
  IconDots,
  IconFileImport,
  IconPencil,
  IconSearch,
  IconTrash,
  IconUserOff,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { counted, digits, formatDateTime, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { EmptyState } from '../EmptyState';
import { navigate } from '../useRoute';
import type { SegmentSummary } from '../../api';
import { RenameModal } from './RenameModal';
import { DeleteModal } from './DeleteModal';
import { CombineModal } from './CombineModal';
import { SourceText } from './SourceText';

export function SegmentList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { contacts, imports } = useStores();
  const segments = useStore(contacts, (s) => s.segments);
  const search = useStore(contacts, (s) => s.search);
  const setSearch = useStore(contacts, (s) => s.setSearch);
  const [renaming, setRenaming] = useState<SegmentSummary | null>(null);
  const [deleting, setDeleting] = useState<SegmentSummary | null>(null);
  const [combining, setCombining] = useState(false);
  return (
    <Stack data-testid="page-contacts" gap="sm">
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Title order={2}>{t('contacts.title')}</Title>
          {segments ? (
            <Text c="dimmed" data-testid="segments-count" data-value={segments.length}>
              {t('contacts.count', counted(segments.length, language))}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs">
          <Button
            leftSection={<IconFileImport size={16} />}
            onClick={() => {
              imports.getState().begin();
              navigate('contacts/import');
            }}
            data-testid="contacts-import"
          >
            {t('contacts.import')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconArrowsJoin size={16} />}
            onClick={() => setCombining(true)}
            disabled={!segments?.some((s) => s.status === 'ready')}
            data-testid="contacts-combine"
          >
            {t('contacts.combine')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconUserOff size={16} />}
            onClick={() => navigate('contacts/optouts')}
            data-testid="contacts-optouts"
          >
            {t('contacts.optouts')}
          </Button>
        </Group>
      </Group>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('contacts.search')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        data-testid="segments-search"
        maw={360}
      />
      <Paper withBorder>
        {segments === null ? (
          <Group justify="center" p="xl">
            <Loader size="sm" />
          </Group>
        ) : segments.length === 0 ? (
          <EmptyState
            testId="segments-empty"
            icon={<IconAddressBook size={28} />}
            title={search ? t('contacts.emptySearch') : t('contacts.empty')}
            hint={search ? undefined : t('contacts.emptyHint')}
          />
        ) : (
          <Table highlightOnHover verticalSpacing="sm" data-testid="segments-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('contacts.columns.name')}</Table.Th>
                <Table.Th>{t('contacts.columns.members')}</Table.Th>
                <Table.Th>{t('contacts.columns.columns')}</Table.Th>
                <Table.Th>{t('contacts.columns.source')}</Table.Th>
                <Table.Th>{t('contacts.columns.created')}</Table.Th>
                <Table.Th w={48} aria-label={t('contacts.columns.actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {segments.map((segment) => (
                <Table.Tr
                  key={segment.id}
                  data-testid="segment-row"
                  data-id={segment.id}
                  data-name={segment.name}
                  data-count={segment.member_count}
                  data-status={segment.status}
                  style={{ cursor: 'pointer' }}
                  onClick={() => navigate(`contacts/segment/${segment.id}`)}
                >
                  <Table.Td fw={600}>{segment.name}</Table.Td>
                  <Table.Td data-testid="segment-count">
                    {segment.status === 'importing' ? (
                      <Group gap={6} wrap="nowrap">
                        <Loader size={14} />
                        <Text size="sm" c="dimmed">
                          {t('contacts.importing')}
                        </Text>
                      </Group>
                    ) : (
                      formatNumber(segment.member_count, language)
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {segment.columns.length === 0 ? (
                        <Text size="xs" c="dimmed">
                          {t('contacts.noColumns')}
                        </Text>
                      ) : (
                        segment.columns.slice(0, 4).map((column) => (
                          <Badge key={column} variant="light" color="gray" tt="none">
                            {column}
                          </Badge>
                        ))
                      )}
                      {segment.columns.length > 4 ? (
                        <Text size="xs" c="dimmed">
                          +{digits(segment.columns.length - 4, language)}
                        </Text>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <SourceText source={segment.source} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(segment.created_at, language)}</Text>
                  </Table.Td>
                  <Table.Td onClick={(event) => event.stopPropagation()}>
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={t('contacts.open')}
                          data-testid="segment-menu"
                        >
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          leftSection={<IconPencil size={16} />}
                          onClick={() => setRenaming(segment)}
                          data-testid="segment-rename"
                        >
                          {t('contacts.rename')}
                        </Menu.Item>
                        <Menu.Item
                          color="red"
                          leftSection={<IconTrash size={16} />}
                          onClick={() => setDeleting(segment)}
                          data-testid="segment-delete"
                        >
                          {t('contacts.delete')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      <RenameModal segment={renaming} onClose={() => setRenaming(null)} />
      <DeleteModal segment={deleting} onClose={() => setDeleting(null)} />
      <CombineModal opened={combining} onClose={() => setCombining(false)} />
    </Stack>
  );
}
