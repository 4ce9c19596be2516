// What recipients get: the core's personalized text of sample recipients (the first, the longest,
// a random one that "another random" changes) with encoding, characters, pages and cost each.
import { Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDice5 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { SAMPLE_KINDS, type SampleKind } from '../../../../../shared/campaigns';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { useTextDirection } from '../../../lib/direction';
import { Money } from '../../Money';
import { useEditor } from './useEditor';
import { PhoneNumber } from '../../PhoneNumber';

export function SamplesCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { quote, anotherSample } = useEditor(useShallow((s) => ({ quote: s.quote, anotherSample: s.anotherSample })));
  const samples = quote?.samples ?? [];
  const [kind, setKind] = useState<SampleKind>('first');
  const sample = samples.find((s) => s.kind === kind) ?? samples[0];
  const direction = useTextDirection(sample?.text);
  return (
    <Paper withBorder p="md" data-testid="editor-samples">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>{t('campaignEditor.preview.title')}</Title>
          {sample?.kind === 'random' ? (
            <Button
              size="compact-xs"
              variant="subtle"
              leftSection={<IconDice5 size={14} />}
              onClick={anotherSample}
              data-testid="editor-sample-another"
            >
              {t('campaignEditor.preview.another')}
            </Button>
          ) : null}
        </Group>
        {sample === undefined ? (
          <Text size="sm" c="dimmed">
            {t('campaignEditor.preview.empty')}
          </Text>
        ) : (
          <>
            <SegmentedControl
              size="xs"
              value={sample.kind}
              onChange={(value) => setKind(value as SampleKind)}
              data={SAMPLE_KINDS.filter((k) => samples.some((s) => s.kind === k)).map((k) => ({
                value: k,
                label: <span data-testid={`editor-sample-${k}`}>{t(`campaignEditor.preview.${k}`)}</span>,
              }))}
            />
            <Text size="sm" c="dimmed">
              {t('campaignEditor.preview.to')}{' '}
              <PhoneNumber number={sample.receptor} data-testid="editor-sample-receptor" />
            </Text>
            <Paper bg="gray.0" p="sm" radius="sm">
              <Text className="final-text" dir={direction} data-user-text data-testid="editor-sample-text">
                {sample.text}
              </Text>
            </Paper>
            <SimpleGrid cols={4} spacing="xs">
              <Figure label={t('campaignEditor.preview.encoding')} testId="editor-sample-encoding">
                <Badge variant="light" color={sample.encoding === 'UCS-2' ? 'yellow' : 'teal'}>
                  {sample.encoding}
                </Badge>
              </Figure>
              <Figure label={t('campaignEditor.preview.characters')} testId="editor-sample-characters">
                {formatNumber(sample.characters, language)}
              </Figure>
              <Figure label={t('campaignEditor.preview.pages')} testId="editor-sample-pages">
                {formatNumber(sample.pages, language)}
              </Figure>
              <Figure label={t('campaignEditor.preview.cost')} testId="editor-sample-cost">
                <Money rials={sample.cost_rials} />
              </Figure>
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function Figure({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <Stack gap={2} align="center">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="sm" data-testid={testId} component="div">
        {children}
      </Text>
    </Stack>
  );
}
