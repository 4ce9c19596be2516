// The current account's verify/lookup templates (API version 1): a list with an active switch,
// a form to create or edit one (its name, its text with a live preview that fills the
// placeholders with sample codes, its line) and, for the name in the form, the call a program
// makes. The form says at once what the core would refuse (the same rules, shared/verify-templates.ts);
// the core's answer still decides.
import {
  ActionIcon,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconPlus, IconTemplate } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { VerifyTemplate } from '../../stores/templates';
import { EmptyState } from '../EmptyState';
import { PhoneNumber } from '../PhoneNumber';
import { directionFor, useTextDirection } from '../../lib/direction';
import { digits } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import {
  fillTemplate,
  placeholdersOf,
  TEMPLATE_NAME,
  TEMPLATE_TOKENS,
  templateBodyFault,
  type TemplateToken,
} from '../../../../shared/verify-templates';

/** The form's state: a new template (id null) or an existing one's edited copy. */
interface Draft {
  id: number | null;
  name: string;
  body: string;
  sender: string | null;
  active: boolean;
}

const EMPTY: Draft = { id: null, name: '', body: '', sender: null, active: true };

export function VerifyTemplatesSettings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { templates: store } = useStores();
  const { templates, error, update } = useStore(
    store,
    useShallow((s) => ({ templates: s.templates, error: s.error, update: s.update })),
  );
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<VerifyTemplate | null>(null);

  const setActive = async (template: VerifyTemplate, active: boolean) => {
    const why = await update(template.id, { active });
    if (why !== null) notifications.show({ color: 'red', message: why });
  };

  return (
    <Paper withBorder p="md" mt="md" data-testid="templates">
      <Stack gap="sm">
        <Group justify="space-between" align="start">
          <div style={{ flex: 1 }}>
            <Text fw={600}>{t('templates.title')}</Text>
            <Text size="sm" c="dimmed" maw={720}>
              {t('templates.hint')}
            </Text>
          </div>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDraft(EMPTY)} data-testid="template-new">
            {t('templates.new')}
          </Button>
        </Group>
        {error !== null ? (
          <Text size="sm" c="red" data-testid="templates-error">
            {error}
          </Text>
        ) : null}
        {templates.length === 0 ? (
          <EmptyState
            testId="templates-empty"
            icon={<IconTemplate size={28} />}
            title={t('templates.empty')}
            hint={t('templates.emptyHint')}
          />
        ) : (
          <Table data-testid="templates-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('templates.name')}</Table.Th>
                <Table.Th>{t('templates.body')}</Table.Th>
                <Table.Th>{t('templates.sender')}</Table.Th>
                <Table.Th>{t('templates.active')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {templates.map((template) => (
                <Table.Tr key={template.id} data-testid="template-row" data-name={template.name}>
                  <Table.Td>
                    <span className="ltr-value">{template.name}</span>
                  </Table.Td>
                  <Table.Td maw={360}>
                    <Text
                      size="sm"
                      dir={directionFor(template.body, language)}
                      data-user-text
                      lineClamp={2}
                      data-testid="template-body"
                    >
                      {template.body}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {template.sender === null ? (
                      <Text size="sm" c="dimmed">
                        {t('templates.defaultSender')}
                      </Text>
                    ) : (
                      <PhoneNumber number={template.sender} />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={template.active}
                      onChange={(event) => void setActive(template, event.currentTarget.checked)}
                      aria-label={t('templates.active')}
                      data-testid="template-active"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => setDraft({ ...template })}
                        data-testid="template-edit"
                      >
                        {t('templates.edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting(template)}
                        data-testid="template-delete"
                      >
                        {t('templates.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      {draft ? <TemplateEditor draft={draft} onClose={() => setDraft(null)} /> : null}
      <DeleteTemplate template={deleting} onClose={() => setDeleting(null)} />
    </Paper>
  );
}

/** What the form says of a name before the core is asked; null when it may be sent. */
function nameFault(name: string): 'nameInvalid' | null {
  return name.trim() === '' || TEMPLATE_NAME.test(name.trim()) ? null : 'nameInvalid';
}

function TemplateEditor({ draft: initial, onClose }: { draft: Draft; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const stores = useStores();
  const { create, update } = useStore(
    stores.templates,
    useShallow((s) => ({ create: s.create, update: s.update })),
  );
  const lines = useStore(stores.settings, (s) => s.lines);
  const [draft, setDraft] = useState(initial);
  const bodyDirection = useTextDirection(draft.body);
  const [refused, setRefused] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const change = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setRefused(null);
  };

  const samples = Object.fromEntries(TEMPLATE_TOKENS.map((token) => [token, t(`templates.sample.${token}`)])) as Record<
    TemplateToken,
    string
  >;
  const bodyFault = draft.body === '' ? null : templateBodyFault(draft.body);
  const unknown = placeholdersOf(draft.body).find((name) => !(TEMPLATE_TOKENS as readonly string[]).includes(name));
  const badName = nameFault(draft.name);
  const ready = draft.name.trim() !== '' && badName === null && draft.body !== '' && bodyFault === null;
  // SMS lines: verify/lookup sends a text message. The template's own line stays listed even if it
  // is no longer an SMS line, so the form shows what is stored.
  const senders = lines
    .filter((line) => line.provider === 'sms' || line.number === draft.sender)
    .map((line) => ({ value: line.number, label: digits(line.number, language) }));

  const submit = async () => {
    setSaving(true);
    const fields = { name: draft.name.trim(), body: draft.body, sender: draft.sender, active: draft.active };
    const why = draft.id === null ? await create(fields) : await update(draft.id, fields);
    setSaving(false);
    if (why !== null) return setRefused(why);
    notifications.show({
      color: 'teal',
      message: t(draft.id === null ? 'templates.created' : 'templates.saved', { name: fields.name }),
    });
    onClose();
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={draft.id === null ? t('templates.newTitle') : t('templates.editTitle', { name: initial.name })}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) void submit();
        }}
        data-testid="template-form"
      >
        <Stack gap="sm">
          <TextInput
            label={t('templates.name')}
            description={t('templates.nameHint')}
            value={draft.name}
            onChange={(event) => change({ name: event.currentTarget.value })}
            error={badName ? t(`templates.${badName}`) : null}
            dir="ltr"
            data-autofocus
            data-testid="template-name"
          />
          <Textarea
            label={t('templates.body')}
            description={t('templates.bodyHint')}
            value={draft.body}
            onChange={(event) => change({ body: event.currentTarget.value })}
            error={
              bodyFault === 'template_placeholder_unknown'
                ? t('templates.placeholderUnknown', { name: unknown ?? '' })
                : bodyFault === 'template_body_needs_token'
                  ? t('templates.bodyNeedsToken')
                  : null
            }
            autosize
            minRows={3}
            dir={bodyDirection}
            data-testid="template-body-input"
          />
          <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
            <Text size="xs" c="dimmed">
              {t('templates.preview')} · {t('templates.previewHint')}
            </Text>
            <Text
              size="sm"
              dir={bodyDirection}
              data-user-text
              style={{ whiteSpace: 'pre-wrap' }}
              mih={20}
              data-testid="template-preview"
            >
              {fillTemplate(draft.body, samples)}
            </Text>
          </Paper>
          <Group align="start" grow>
            <Select
              label={t('templates.sender')}
              description={draft.sender === null ? t('templates.defaultSenderHint') : undefined}
              data={[{ value: '', label: t('templates.defaultSender') }, ...senders]}
              value={draft.sender ?? ''}
              allowDeselect={false}
              onChange={(value) => change({ sender: value ? value : null })}
              data-testid="template-sender"
            />
            <Switch
              mt={28}
              label={t('templates.active')}
              description={t('templates.activeHint')}
              checked={draft.active}
              onChange={(event) => change({ active: event.currentTarget.checked })}
              data-testid="template-form-active"
            />
          </Group>
          <LookupExample name={draft.name.trim()} body={draft.body} samples={samples} />
          {refused !== null ? (
            <Text size="sm" c="red" data-testid="template-refused">
              {refused}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!ready} loading={saving} data-testid="template-save">
              {draft.id === null ? t('templates.create') : t('templates.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The verify/lookup call for this template, with a sample code for each placeholder its text uses. */
function LookupExample({
  name,
  body,
  samples,
}: {
  name: string;
  body: string;
  samples: Record<TemplateToken, string>;
}) {
  const { t } = useTranslation();
  const httpApi = useStore(useStores().session, (s) => s.settings?.http_api);
  const base = httpApi ? (httpApi.url ?? `http://${httpApi.host}:${httpApi.port}`) : 'http://127.0.0.1:8080';
  const used = TEMPLATE_TOKENS.filter((token) => token === 'token' || placeholdersOf(body).includes(token));
  const query = new URLSearchParams({ receptor: '09120000000', template: name || 'NAME' });
  for (const token of used) query.set(token, samples[token]);
  const command = `curl "${base.replace(/\/$/, '')}/v1/API-KEY/verify/lookup.json?${query.toString()}"`;
  return (
    <Stack gap={4}>
      <Group gap="xs" justify="space-between">
        <Text size="sm" fw={500}>
          {t('templates.example')}
        </Text>
        <CopyButton value={command}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('common.copied') : t('common.copy')}>
              <ActionIcon variant="subtle" onClick={copy} aria-label={t('common.copy')}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block dir="ltr" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="template-example">
        {command}
      </Code>
      <Text size="xs" c="dimmed">
        {t('templates.exampleHint')}
      </Text>
    </Stack>
  );
}

function DeleteTemplate({ template, onClose }: { template: VerifyTemplate | null; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useStore(useStores().templates, (s) => s.remove);
  const [refused, setRefused] = useState<string | null>(null);
  const close = () => {
    setRefused(null);
    onClose();
  };
  return (
    <Modal
      opened={template !== null}
      onClose={close}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t('templates.deleteTitle', { name: template?.name ?? '' })}
    >
      <Stack>
        <Text size="sm">{t('templates.deleteText', { name: template?.name ?? '' })}</Text>
        {refused !== null ? (
          <Text size="sm" c="red">
            {refused}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            onClick={async () => {
              if (!template) return;
              const why = await remove(template.id);
              if (why !== null) return setRefused(why);
              notifications.show({ color: 'teal', message: t('templates.deleted', { name: template.name }) });
              close();
            }}
            data-testid="template-delete-confirm"
          >
            {t('templates.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
