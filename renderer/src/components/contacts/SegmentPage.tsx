// One segment: its size, how many of it are opted out, the campaigns using it; its members in a
// virtualized table read page by page from SQLite (smooth at a million), searchable by number in
// any digit form or by any column; export, "send to this segment", add rows, rename, delete.
import { Alert, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileImport, IconPencil, IconSearch, IconSend, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { SegmentDetail } from '../../stores/contacts';
import { counted, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { navigate } from '../useRoute';
import { FileExportButtons } from '../FileExportButtons';
import { usePagedRows } from '../usePagedRows';
import { Cell, PhoneCell, VirtualRows } from './VirtualRows';
import { RenameModal } from './RenameModal';
import { DeleteModal } from './DeleteModal';
import { SourceText } from './SourceText';
import { BackLink } from '../BackLink';

interface Member {
  phone: string;
  fields: Record<string, string>;
  opted_out: boolean;
}

export function SegmentPage({ segmentId }: { segmentId: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { contacts, compose, imports } = useStores();
  const { accountId, detail, members, exportSegment } = useStore(
    contacts,
    useShallow((s) => ({
      accountId: s.accountId,
      detail: s.detail,
      members: s.members,
      exportSegment: s.exportSegment,
    })),
  );
  // The list's entry changes when the segment does (an import into it ends, a rename).
  const listed = useStore(contacts, (s) => s.segments?.find((segment) => segment.id === segmentId));
  const [info, setInfo] = useState<SegmentDetail | null | undefined>(undefined);
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const version = `${listed?.status}:${listed?.member_count}:${listed?.name}:${listed?.columns.join(',')}`;

  useEffect(() => {
    let current = true;
    void detail(segmentId).then((answer) => current && setInfo(answer));
    return () => {
      current = false;
    };
  }, [segmentId, detail, version]);

  const fetchPage = useCallback(
    async (offset: number, limit: number) => {
      const page = await members(segmentId, offset, limit, query || undefined);
      return page && { total: page.total, rows: page.members };
    },
    [members, segmentId, query],
  );
  const rows = usePagedRows<Member>(`${accountId}:${segmentId}:${query}:${version}`, fetchPage);

  if (info === null)
    return (
      <Stack data-testid="page-segment">
        <Alert color="gray">{t('segment.notFound')}</Alert>
        <BackLink to="contacts" label={t('segment.back')} testId="segment-back" />
      </Stack>
    );
  const columns = info?.columns ?? [];
  const sendTo = () => {
    compose.getState().setSegment(segmentId);
    void compose.getState().refreshSegments();
    navigate('compose');
  };
  return (
    <Stack data-testid="page-segment" data-id={segmentId} gap="sm">
      <BackLink to="contacts" label={t('segment.back')} testId="segment-back" />
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={2} data-testid="segment-name">
              {info?.name ?? ''}
            </Title>
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconPencil size={14} />}
              onClick={() => setRenaming(true)}
              data-testid="segment-page-rename"
            >
              {t('contacts.rename')}
            </Button>
          </Group>
          <Group gap="sm">
            <Text fw={600} data-testid="segment-members" data-value={info?.member_count ?? ''}>
              {info ? t('segment.members', counted(info.member_count, language)) : ''}
            </Text>
            {info ? <SourceText source={info.source} /> : null}
          </Group>
          {info ? (
            <Text
              size="sm"
              c={info.opted_out > 0 ? 'orange.8' : 'dimmed'}
              data-testid="segment-opted-out"
              data-value={info.opted_out}
            >
              {info.opted_out > 0
                ? t('segment.optedOut', { n: formatNumber(info.opted_out, language) })
                : t('segment.noneOptedOut')}
            </Text>
          ) : null}
          {info && info.campaigns.length > 0 ? (
            <Text size="sm" c="dimmed">
              {t('segment.usedBy', { names: info.campaigns.map((c) => c.name).join('، ') })}
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs">
          <Button
            leftSection={<IconSend size={16} />}
            onClick={sendTo}
            disabled={info?.status !== 'ready'}
            data-testid="segment-send"
          >
            {t('segment.send')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconFileImport size={16} />}
            onClick={() => {
              imports.getState().begin();
              navigate(`contacts/import/${segmentId}`);
            }}
            disabled={info?.status !== 'ready'}
            data-testid="segment-add-rows"
          >
            {t('segment.addRows')}
          </Button>
          <FileExportButtons
            run={(format) => exportSegment(segmentId, format)}
            labels={{ csv: t('segment.exportCsv'), xlsx: t('segment.exportXlsx') }}
            title={t('segment.exported')}
            testId="segment-export"
          />
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => setDeleting(true)}
            data-testid="segment-page-delete"
          >
            {t('contacts.delete')}
          </Button>
        </Group>
      </Group>
      <Group gap="sm">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('segment.search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={360}
          data-testid="members-search"
        />
        {query && rows.total !== null ? (
          <Text size="sm" c="dimmed" data-testid="members-matches" data-value={rows.total}>
            {t('segment.matches', { n: formatNumber(rows.total, language) })}
          </Text>
        ) : null}
      </Group>
      {rows.total === 0 && query ? (
        <Text c="dimmed" data-testid="members-empty">
          {t('segment.empty')}
        </Text>
      ) : (
        <VirtualRows
          testId="members-table"
          count={rows.total ?? 0}
          columns={`84px 140px repeat(${columns.length}, minmax(100px, 1fr)) 110px`}
          header={
            <>
              <div>#</div>
              <div>{t('segment.phone')}</div>
              {columns.map((column) => (
                <Cell key={column} text={column} />
              ))}
              <div />
            </>
          }
          onRange={rows.ensure}
          renderRow={(index) => {
            const member = rows.row(index);
            if (!member) return null;
            return (
              <>
                <Text size="xs" c="dimmed">
                  {formatNumber(index + 1, language)}
                </Text>
                <PhoneCell phone={member.phone} testId="member-phone" />
                {columns.map((column) => (
                  <Cell key={column} text={member.fields[column] ?? ''} />
                ))}
                <div>
                  {member.opted_out ? (
                    <Badge color="orange" variant="light" data-testid="member-opted-out">
                      {t('segment.optedOutMark')}
                    </Badge>
                  ) : null}
                </div>
              </>
            );
          }}
        />
      )}
      <RenameModal
        segment={renaming && info ? info : null}
        onClose={() => {
          setRenaming(false);
          void detail(segmentId).then(setInfo);
        }}
      />
      <DeleteModal
        segment={deleting && info ? info : null}
        onClose={(deleted) => {
          setDeleting(false);
          if (deleted) navigate('contacts');
        }}
      />
    </Stack>
  );
}
