// The campaign editor (#/campaigns/new, #/campaigns/draft/<id>): the form on the start side (name,
// line, text, links, segments, time), what the core computes of it on the end side (audience,
// sample texts, cost against credit, a test send, scheduling). The draft is saved as the user
// types; the first change of a new campaign creates it and the address moves to it, so a reload
// keeps the work.
import { Alert, Button, Grid, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BackLink } from '../../BackLink';
import { useShallow } from 'zustand/react/shallow';
import type { SaveState } from '../../../stores/campaignEditor';
import { isolate } from '../../../lib/format';
import { navigate } from '../../useRoute';
import { AudienceCard } from './AudienceCard';
import { DetailsCard } from './DetailsCard';
import { LinksCard } from './LinksCard';
import { SamplesCard } from './SamplesCard';
import { ScheduleCard } from './ScheduleCard';
import { SegmentsCard } from './SegmentsCard';
import { TestCard } from './TestCard';
import { useBodyInsert, useEditor, useEditorStore } from './useEditor';
import { useFaultText } from './useFaultText';
import { WhenCard } from './WhenCard';

export function CampaignEditor({ draftId }: { draftId: number | null }) {
  const { t } = useTranslation();
  const store = useEditorStore();
  const { accountId, status, open, refreshSegments, saveError } = useEditor(
    useShallow((s) => ({
      accountId: s.accountId,
      status: s.status,
      open: s.open,
      refreshSegments: s.refreshSegments,
      saveError: s.saveError,
    })),
  );
  const describe = useFaultText();
  const { ref: bodyRef, insert } = useBodyInsert();

  // The route's draft (or a new campaign), again when the account changes.
  useEffect(() => {
    void open(draftId);
  }, [open, draftId, accountId]);
  useEffect(() => {
    void refreshSegments();
  }, [refreshSegments]);
  // A new campaign's draft, once created, gets its own address: a reload opens it.
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        if (state.draftId !== null && state.draftId !== previous.draftId && state.status === 'ready')
          navigate(`campaigns/draft/${state.draftId}`);
      }),
    [store],
  );
  // Leaving the page writes what waits to be saved.
  useEffect(() => () => void store.getState().flushSave(), [store]);

  if (status === 'missing') {
    return (
      <Stack data-testid="campaign-editor">
        <BackLink to="campaigns" label={t('campaignEditor.back')} testId="editor-back" />
        <Alert color="orange" data-testid="editor-missing">
          <Text size="sm">{t('campaignEditor.missing')}</Text>
          {/* Other than "no such draft" (a network or service trouble), what the service said. */}
          {saveError && saveError.code !== 400 ? (
            <Text size="sm" c="dimmed" mt={4}>
              {describe(saveError)}
            </Text>
          ) : null}
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack data-testid="campaign-editor">
      <BackLink to="campaigns" label={t('campaignEditor.back')} testId="editor-back" />
      <EditorHeader />
      {status === 'loading' ? (
        <Group>
          <Loader size="sm" />
          <Text c="dimmed">{t('campaignEditor.loading')}</Text>
        </Group>
      ) : null}
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack>
            <DetailsCard bodyRef={bodyRef} insert={insert} />
            <SegmentsCard />
            <LinksCard insert={insert} />
            <WhenCard />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack>
            <AudienceCard />
            <SamplesCard />
            <ScheduleCard />
            <TestCard />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** The title, whether the draft is saved, and deleting it. */
function EditorHeader() {
  const { t } = useTranslation();
  const { name, draftId, save, saveError, deleteDraft, created } = useEditor(
    useShallow((s) => ({
      name: s.fields.name,
      draftId: s.draftId,
      save: s.save,
      saveError: s.saveError,
      deleteDraft: s.deleteDraft,
      created: s.created,
    })),
  );
  const describe = useFaultText();
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const title =
    name.trim() !== '' ? name : draftId === null ? t('campaignEditor.titleNew') : t('campaignEditor.untitled');
  return (
    <Group justify="space-between" align="center">
      <Group gap="sm" align="baseline">
        <Title order={2} dir="auto">
          {title}
        </Title>
        {created === null ? <SaveBadge save={save} error={saveError ? describe(saveError) : null} /> : null}
      </Group>
      {draftId !== null && created === null ? (
        <Button
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={() => setDeleting(true)}
          data-testid="editor-delete"
        >
          {t('campaignEditor.delete')}
        </Button>
      ) : null}
      <Modal opened={deleting} onClose={() => setDeleting(false)} title={t('campaignEditor.deleteTitle')} centered>
        <Stack>
          <Text>{t('campaignEditor.deleteBody', { name: isolate(name.trim() || t('campaignEditor.untitled')) })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={async () => {
                setBusy(true);
                const done = await deleteDraft();
                setBusy(false);
                setDeleting(false);
                if (done) navigate('campaigns');
              }}
              data-testid="editor-delete-confirm"
            >
              {t('campaignEditor.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

function SaveBadge({ save, error }: { save: SaveState; error: string | null }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} data-testid="editor-saved" data-state={save}>
      {save === 'saved' ? <IconCheck size={14} color="var(--mantine-color-teal-7)" /> : null}
      {save === 'saving' || save === 'pending' ? <Loader size={12} /> : null}
      <Text size="sm" c={save === 'failed' ? 'red' : 'dimmed'}>
        {save === 'failed' ? t('campaignEditor.save.failed', { error: error ?? '' }) : t(`campaignEditor.save.${save}`)}
      </Text>
    </Group>
  );
}
