// "Save as segment": the audience the editor shows (included, less excluded and opted out, meeting
// the conditions) made into a new segment with its columns, by the core as a contacts job; its
// progress is followed here, then its size and a way to it in Contacts.
import { Alert, Anchor, Button, Group, Loader, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../../stores/context';
import { faultOf } from '../../../stores/campaignEditor';
import { formatNumber, isolate } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { useTextDirection } from '../../../lib/direction';
import { navigate } from '../../useRoute';
import { useEditor } from '../editor/useEditor';
import { useFaultText } from '../editor/useFaultText';

type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
const ENDED = new Set<JobStatus>(['done', 'failed', 'cancelled']);
const POLL_MS = 500;

interface Saving {
  name: string;
  jobId: number;
  segmentId: number;
  status: JobStatus;
  fraction: number;
  members: number | null;
  error: string | null;
}

export function SaveSegment({ recipients }: { recipients: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const describe = useFaultText();
  const { contacts } = useStores();
  const { accountId, fields } = useEditor(useShallow((s) => ({ accountId: s.accountId, fields: s.fields })));
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState('');
  const direction = useTextDirection(name);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<Saving | null>(null);
  const jobRef = useRef<number | null>(null);

  // The job moves on by its pushes, and by a read now and then (a push may be missed offline).
  useEffect(() => {
    if (saving === null || ENDED.has(saving.status) || accountId === null) return;
    const { api } = contacts.getState();
    const jobId = saving.jobId;
    const move = (job: { job_id: number; status: JobStatus; fraction: number; error: string | null }) => {
      if (job.job_id !== jobRef.current) return;
      setSaving((now) =>
        now && now.jobId === job.job_id && !ENDED.has(now.status)
          ? { ...now, status: job.status, fraction: job.fraction, error: job.error }
          : now,
      );
    };
    const stop = api.on('import:progress', move);
    const timer = setInterval(() => {
      void api
        .invoke('imports:get', { account_id: accountId, job_id: jobId })
        .then(move)
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      stop();
      clearInterval(timer);
    };
  }, [contacts, accountId, saving?.jobId, saving?.status]); // eslint-disable-line react-hooks/exhaustive-deps

  // Done: its size as the core counts it.
  useEffect(() => {
    if (saving?.status !== 'done' || saving.members !== null || accountId === null) return;
    const { api } = contacts.getState();
    const segmentId = saving.segmentId;
    void api
      .invoke('segments:get', { account_id: accountId, segment_id: segmentId })
      .then((segment) =>
        setSaving((now) => (now?.segmentId === segmentId ? { ...now, members: segment.member_count } : now)),
      )
      .catch((failure: unknown) => setError(describe(faultOf(failure))));
  }, [contacts, accountId, saving?.status, saving?.members, saving?.segmentId, describe]);

  const start = async () => {
    if (accountId === null || starting) return;
    setStarting(true);
    setError(null);
    try {
      const { api } = contacts.getState();
      const answer = await api.invoke('segments:fromAudience', {
        account_id: accountId,
        name: name.trim(),
        include: fields.inclusion_segments,
        exclude: fields.exclusion_segments,
        filter: fields.filter,
      });
      jobRef.current = answer.job_id;
      setSaving({
        name: name.trim(),
        jobId: answer.job_id,
        segmentId: answer.segment_id,
        status: 'queued',
        fraction: 0,
        members: null,
        error: null,
      });
    } catch (failure) {
      setError(describe(faultOf(failure)));
    } finally {
      setStarting(false);
    }
  };

  const close = () => {
    setOpened(false);
    if (saving === null || ENDED.has(saving.status)) {
      setSaving(null);
      setName('');
      setError(null);
    }
  };

  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconDeviceFloppy size={14} />}
        onClick={() => setOpened(true)}
        disabled={recipients === 0 || accountId === null}
        style={{ alignSelf: 'flex-start' }}
        data-testid="editor-save-segment"
      >
        {t('campaignEditor.filter.save.button')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t('campaignEditor.filter.save.title')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm" data-testid="save-segment">
          {saving === null ? (
            <>
              <Text size="sm">{t('campaignEditor.filter.save.body', { n: formatNumber(recipients, language) })}</Text>
              <TextInput
                label={t('campaignEditor.filter.save.name')}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                dir={direction}
                maxLength={200}
                data-autofocus
                data-testid="save-segment-name"
              />
            </>
          ) : (
            <SavingState saving={saving} onOpen={close} />
          )}
          {error ? (
            <Alert color="red" data-testid="save-segment-error">
              {t('campaignEditor.filter.save.failed', { error })}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-testid="save-segment-close">
              {saving === null ? t('common.cancel') : t('common.close')}
            </Button>
            {saving === null ? (
              <Button
                onClick={() => void start()}
                loading={starting}
                disabled={!name.trim()}
                data-testid="save-segment-start"
              >
                {t('campaignEditor.filter.save.start')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function SavingState({ saving, onOpen }: { saving: Saving; onOpen(): void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const name = isolate(saving.name);
  const ended = ENDED.has(saving.status);
  return (
    <Stack
      gap={6}
      data-testid="save-segment-progress"
      data-status={saving.status}
      data-segment={saving.segmentId}
      data-members={saving.members ?? ''}
    >
      {!ended || (saving.status === 'done' && saving.members === null) ? (
        <>
          <Group gap="xs">
            <Loader size={14} />
            <Text size="sm">{t('campaignEditor.filter.save.saving')}</Text>
          </Group>
          <Progress value={saving.fraction * 100} size="sm" />
        </>
      ) : saving.status === 'done' ? (
        <Group gap="sm">
          <Text size="sm" c="teal.8">
            {t('campaignEditor.filter.save.done', { name, n: formatNumber(saving.members ?? 0, language) })}
          </Text>
          <Anchor
            size="sm"
            href={`#/contacts/segment/${saving.segmentId}`}
            onClick={(event) => {
              event.preventDefault();
              onOpen();
              navigate(`contacts/segment/${saving.segmentId}`);
            }}
            data-testid="save-segment-open"
          >
            {t('campaignEditor.filter.save.open')}
          </Anchor>
        </Group>
      ) : (
        <Text size="sm" c="red">
          {t('campaignEditor.filter.save.failed', { error: saving.error ?? saving.status })}
        </Text>
      )}
    </Stack>
  );
}
