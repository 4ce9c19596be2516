// Who the email goes to: a segment, and what the core makes of it: its rows, those with a valid
// first-seen address (one email each), and those skipped, with the row, the phone and why, behind
// a disclosure. A segment without an EMAIL column is said plainly, with what to do.
import { Alert, Anchor, Badge, Collapse, Paper, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { emailSelectors } from '../../stores/email';
import { counted, digits, formatNumber, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { CountTile } from '../CountTile';
import type { EmailPreview } from '../../../../shared/ipc/contracts/email';

export function RecipientsCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { email } = useStores();
  const { segments, segmentId, setFields } = useStore(
    email,
    useShallow((s) => ({ segments: s.segments, segmentId: s.fields.segmentId, setFields: s.setFields })),
  );
  const preview = useStore(email, emailSelectors.currentPreview);
  const noEmailColumn = useStore(email, emailSelectors.noEmailColumn);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('email.recipients.title')}</Title>
        <Select
          label={t('email.recipients.segment')}
          placeholder={
            segments.length === 0 ? t('email.recipients.noSegments') : t('email.recipients.segmentPlaceholder')
          }
          disabled={segments.length === 0}
          searchable
          allowDeselect={false}
          data={segments.map((s) => ({
            value: String(s.id),
            label:
              s.status === 'ready'
                ? t('email.recipients.segmentOption', { ...counted(s.member_count, language), name: isolate(s.name) })
                : t('email.recipients.segmentImporting', { name: isolate(s.name) }),
            // A segment still importing has no final rows to count.
            disabled: s.status !== 'ready',
          }))}
          value={segmentId === null ? null : String(segmentId)}
          onChange={(value) => setFields({ segmentId: value === null ? null : Number(value) })}
          renderOption={({ option }) => (
            <span data-testid={`email-segment-option-${option.value}`}>{option.label}</span>
          )}
          data-testid="email-segment"
        />
        {segmentId !== null && noEmailColumn ? <NoEmailColumn /> : null}
        {segmentId !== null && preview ? <Counts preview={preview} /> : null}
      </Stack>
    </Paper>
  );
}

function Counts({ preview }: { preview: EmailPreview }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Stack gap="sm">
      <SimpleGrid cols={3} spacing="xs">
        <CountTile label={t('email.recipients.total')} value={preview.total} testId="email-total" />
        <CountTile label={t('email.recipients.valid')} value={preview.valid} color="teal" testId="email-valid" />
        <CountTile
          label={t('email.recipients.skipped')}
          value={preview.skipped_count}
          color="orange"
          testId="email-skipped-count"
        />
      </SimpleGrid>
      {preview.email_column === null ? (
        <NoEmailColumn />
      ) : (
        <Text size="xs" c="dimmed" data-testid="email-column" data-value={preview.email_column}>
          {t('email.recipients.emailColumn', { column: isolate(preview.email_column) })}
        </Text>
      )}
      {preview.skipped_count > 0 && preview.email_column !== null ? (
        <Skipped preview={preview} language={language} />
      ) : null}
    </Stack>
  );
}

/** Nobody can get an email: what is missing and how to add it. */
function NoEmailColumn() {
  const { t } = useTranslation();
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title={t('email.recipients.noEmailColumn')}
      data-testid="email-no-column"
    >
      {t('email.recipients.noEmailColumnHint')}
    </Alert>
  );
}

const REASON_COLOR = { missing: 'gray', invalid: 'red', duplicate: 'yellow' } as const;

function Skipped({ preview, language }: { preview: EmailPreview; language: 'fa' | 'en' }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const n = formatNumber(preview.skipped_count, language);
  return (
    <Stack gap={6}>
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        data-testid="email-skipped-toggle"
      >
        {open
          ? t('email.recipients.skippedHide')
          : t('email.recipients.skippedShow', { count: preview.skipped_count, n })}
      </Anchor>
      <Collapse in={open}>
        <Stack gap={6} data-testid="email-skipped">
          <Table striped withTableBorder fz="sm" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('email.recipients.row')}</Table.Th>
                <Table.Th>{t('email.recipients.phone')}</Table.Th>
                <Table.Th>{t('email.recipients.address')}</Table.Th>
                <Table.Th>{t('email.recipients.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.skipped.map((row) => (
                <Table.Tr
                  key={row.row}
                  data-testid="email-skipped-row"
                  data-row={row.row}
                  data-reason={row.reason}
                  data-phone={row.phone}
                >
                  <Table.Td>{formatNumber(row.row, language)}</Table.Td>
                  <Table.Td>
                    <bdi dir="ltr">{digits(row.phone, language)}</bdi>
                  </Table.Td>
                  <Table.Td style={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    {row.email ? <bdi dir="ltr">{row.email}</bdi> : '—'}
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={REASON_COLOR[row.reason]} style={{ textTransform: 'none' }}>
                      {t(`email.recipients.reasons.${row.reason}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {preview.skipped_count > preview.skipped.length ? (
            <Text size="xs" c="dimmed">
              {t('email.recipients.skippedMore', {
                shown: formatNumber(preview.skipped.length, language),
                n,
              })}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {t('email.recipients.skippedHint')}
          </Text>
        </Stack>
      </Collapse>
    </Stack>
  );
}
