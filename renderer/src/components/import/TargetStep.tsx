// Where the rows go: a new segment (named after the file unless renamed) or an existing one.
import { Button, Group, Paper, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';

export function TargetStep() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports, contacts } = useStores();
  const { target, source, starting, setTarget, goTo, start } = useStore(
    imports,
    useShallow((s) => ({
      target: s.target,
      source: s.source,
      starting: s.starting,
      setTarget: s.setTarget,
      goTo: s.goTo,
      start: s.start,
    })),
  );
  const segments = (useStore(contacts, (s) => s.segments) ?? []).filter((segment) => segment.status === 'ready');
  const defaultName = source?.name.replace(/\.[^.]+$/, '') ?? '';
  const ready = target.kind === 'new' ? target.name.trim() !== '' : target.segmentId !== null;
  return (
    <Stack gap="sm" data-testid="import-target">
      <Paper withBorder p="md">
        <Radio.Group
          value={target.kind}
          onChange={(kind) =>
            setTarget(kind === 'new' ? { kind: 'new', name: defaultName } : { kind: 'existing', segmentId: null })
          }
        >
          <Stack gap="md">
            <Radio value="new" label={t('import.targetNew')} data-testid="import-target-new" />
            {target.kind === 'new' ? (
              <TextInput
                label={t('import.segmentName')}
                value={target.name}
                onChange={(event) => setTarget({ kind: 'new', name: event.currentTarget.value })}
                maxLength={200}
                dir="auto"
                w={360}
                ms="xl"
                data-testid="import-segment-name"
              />
            ) : null}
            <Radio
              value="existing"
              label={t('import.targetExisting')}
              disabled={segments.length === 0}
              data-testid="import-target-existing"
            />
            {target.kind === 'existing' ? (
              <Stack gap={4} ms="xl">
                <Select
                  label={t('import.existingSegment')}
                  data={segments.map((segment) => ({
                    value: String(segment.id),
                    label: `${segment.name} (${formatNumber(segment.member_count, language)})`,
                  }))}
                  value={target.segmentId === null ? null : String(target.segmentId)}
                  onChange={(value) =>
                    setTarget({ kind: 'existing', segmentId: value === null ? null : Number(value) })
                  }
                  searchable
                  placeholder={t('import.existingPlaceholder')}
                  nothingFoundMessage={t('import.existingNone')}
                  w={360}
                  data-testid="import-existing-segment"
                />
                <Text size="xs" c="dimmed" maw={520}>
                  {t('import.existingHint')}
                </Text>
              </Stack>
            ) : null}
          </Stack>
        </Radio.Group>
      </Paper>
      <Group justify="space-between">
        <Button variant="default" onClick={() => goTo('mapping')}>
          {t('import.back')}
        </Button>
        <Button onClick={() => void start()} loading={starting} disabled={!ready} data-testid="import-start">
          {t('import.start')}
        </Button>
      </Group>
    </Stack>
  );
}
