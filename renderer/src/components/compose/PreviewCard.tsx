// The live preview of what receivers get and what it costs.
import { Badge, Divider, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ComposePreview } from '../../lib/preview';
import { ucs2Runs } from '../../lib/preview';
import { digits, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';

export function PreviewCard({ preview, receivers }: { preview: ComposePreview | null; receivers: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (!preview) {
    return (
      <Paper withBorder p="md" data-testid="compose-preview">
        <Text c="dimmed">{t('compose.previewEmpty')}</Text>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="md" data-testid="compose-preview">
      <Stack gap="sm">
        <Text fw={600}>{t('compose.preview')}</Text>
        <Paper bg="gray.0" p="sm" radius="sm">
          <Text className="final-text" dir="auto" data-testid="compose-final-text">
            {ucs2Runs(preview.finalText).map((run, i) =>
              run.ucs2 ? (
                <mark key={i} className="ucs2" data-testid="ucs2-char">
                  {run.text}
                </mark>
              ) : (
                <span key={i}>{run.text}</span>
              ),
            )}
          </Text>
        </Paper>
        {preview.optOutAdded ? (
          <Text size="xs" c="dimmed" data-testid="compose-optout-hint">
            {t('compose.optOutAdded')}
          </Text>
        ) : null}
        <SimpleGrid cols={3} spacing="xs">
          <Figure
            label={t('compose.characters')}
            value={formatNumber(preview.characters, language)}
            testId="compose-characters"
          />
          <Figure label={t('compose.pages')} value={formatNumber(preview.pages, language)} testId="compose-pages" />
          <Figure
            label={t('compose.encoding')}
            value={
              <Badge variant="light" color={preview.encoding === 'UCS-2' ? 'yellow' : 'teal'}>
                {preview.encoding}
              </Badge>
            }
            testId="compose-encoding"
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('compose.perPage', { n: formatNumber(preview.perPage, language) })}
        </Text>
        {preview.ucs2.length > 0 ? (
          <Stack gap={4} data-testid="compose-ucs2">
            <Text size="sm">{t('compose.ucs2Because')}</Text>
            <Group gap={4}>
              {preview.ucs2.slice(0, 24).map((ch) => (
                <Badge key={ch} variant="outline" color="yellow" radius="sm" style={{ textTransform: 'none' }}>
                  {ch === ' ' ? '␠' : ch}
                </Badge>
              ))}
              {preview.ucs2.length > 24 ? (
                <Text size="xs" c="dimmed">
                  {t('compose.andMore', { n: digits(preview.ucs2.length - 24, language) })}
                </Text>
              ) : null}
            </Group>
          </Stack>
        ) : (
          <Text size="sm" c="teal">
            {t('compose.gsmOnly')}
          </Text>
        )}
        <Divider />
        <Group justify="space-between">
          <Text size="sm">{t('compose.costPerMessage')}</Text>
          <Text size="sm" fw={600} data-testid="compose-cost-per-message">
            <Money rials={preview.costPerMessageRials} />
          </Text>
        </Group>
        <Group justify="space-between">
          <Text size="sm">{t('compose.totalCost', { n: formatNumber(receivers, language) })}</Text>
          <Text fw={700} data-testid="compose-total-cost">
            <Money rials={preview.totalRials} />
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}

function Figure({ label, value, testId }: { label: string; value: React.ReactNode; testId: string }) {
  return (
    <Stack gap={2} align="center">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId} component="div">
        {value}
      </Text>
    </Stack>
  );
}
