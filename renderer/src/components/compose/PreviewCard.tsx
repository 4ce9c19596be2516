// The live preview of what receivers get and what it costs. The text is capped in height (a long
// message scrolls inside); a message longer than the person's page limit is pointed out. Characters
// are pointed out only where they raise the price, in words a shop owner uses (how many characters
// a page holds), and invisible ones by their name.
import { Alert, Badge, Divider, Group, Paper, ScrollArea, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { codePoint, invisibleName, markedRuns, type ComposePreview } from '../../lib/preview';
import { counted, digits, formatNumber, phoneText } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { useTextDirection } from '../../lib/direction';
import { Money } from '../Money';

/** Characters listed before "and n more". */
const LISTED = 24;

export interface PreviewFigures extends ComposePreview {
  /** The core's word: each receiver's own text (final text and figures are the first receiver's). */
  personalized: boolean;
  sampleReceptor: string | null;
  /** The most pages of any receiver's text. */
  maxPages: number;
}

export function PreviewCard({
  preview,
  receivers,
  warnAbovePages,
}: {
  preview: PreviewFigures | null;
  receivers: number;
  warnAbovePages: number;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const costly = useMemo(() => new Set(preview?.costly ?? []), [preview?.costly]);
  const runs = useMemo(() => (preview ? markedRuns(preview.finalText, costly) : []), [preview, costly]);
  const direction = useTextDirection(preview?.finalText);
  if (!preview) {
    return (
      <Paper withBorder p="md" data-testid="compose-preview">
        <Text c="dimmed">{t('compose.previewEmpty')}</Text>
      </Paper>
    );
  }
  const long = preview.maxPages > warnAbovePages;
  return (
    <Paper withBorder p="md" data-testid="compose-preview">
      <Stack gap="sm">
        <Text fw={600}>{t('compose.preview')}</Text>
        {preview.personalized && preview.sampleReceptor !== null ? (
          <Text size="xs" c="dimmed" data-testid="compose-preview-first">
            {t('compose.previewFirst', { receptor: phoneText(preview.sampleReceptor, language) })}
          </Text>
        ) : null}
        <Paper bg="gray.0" radius="sm">
          {/* A 5,000-character text scrolls here instead of stretching the page. */}
          <ScrollArea.Autosize mah={220} type="auto" data-testid="compose-final-text-scroll">
            <Text className="final-text" dir={direction} data-user-text p="sm" data-testid="compose-final-text">
              {runs.map((run, i) =>
                run.marked ? (
                  <mark key={i} className="ucs2" data-testid="costly-char">
                    {run.text}
                  </mark>
                ) : (
                  <span key={i}>{run.text}</span>
                ),
              )}
            </Text>
          </ScrollArea.Autosize>
        </Paper>
        <SimpleGrid cols={3} spacing="xs">
          <Figure
            label={t('compose.characters')}
            value={formatNumber(preview.characters, language)}
            testId="compose-characters"
          />
          <Figure label={t('compose.pages')} value={formatNumber(preview.pages, language)} testId="compose-pages" />
          <Figure
            label={t('compose.perPageFigure')}
            value={preview.messenger ? '—' : formatNumber(preview.perPage, language)}
            testId="compose-per-page"
          />
        </SimpleGrid>
        {long ? (
          <Alert
            color="orange"
            icon={<IconAlertTriangle size={18} />}
            data-testid="compose-many-pages"
            data-pages={preview.maxPages}
          >
            {t('compose.manyPages', {
              n: formatNumber(preview.maxPages, language),
              limit: formatNumber(warnAbovePages, language),
            })}
          </Alert>
        ) : null}
        <CharactersNote preview={preview} />
        <Divider />
        <Group justify="space-between">
          <Text size="sm">{t(preview.personalized ? 'compose.costPerMessageFirst' : 'compose.costPerMessage')}</Text>
          <Text size="sm" fw={600} data-testid="compose-cost-per-message">
            <Money rials={preview.costPerMessageRials} />
          </Text>
        </Group>
        <Group justify="space-between">
          <Text size="sm">{t('compose.totalCost', counted(receivers, language))}</Text>
          <Text fw={700} data-testid="compose-total-cost" data-value={preview.totalRials}>
            <Money rials={preview.totalRials} />
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Why a page holds what it holds: the characters that cost money, else what the line does. */
function CharactersNote({ preview }: { preview: ComposePreview }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (preview.costly.length > 0)
    return (
      <Stack gap={4} data-testid="compose-costly">
        <Text size="sm">
          {t('compose.costlyBecause', {
            n: formatNumber(preview.perPage, language),
            without: formatNumber(preview.perPageWithout ?? preview.perPage, language),
          })}
        </Text>
        <Group gap={4}>
          {preview.costly.slice(0, LISTED).map((ch) => (
            <CharacterBadge key={ch} ch={ch} />
          ))}
          {preview.costly.length > LISTED ? (
            <Text size="xs" c="dimmed">
              {t('compose.andMore', { n: digits(preview.costly.length - LISTED, language) })}
            </Text>
          ) : null}
        </Group>
      </Stack>
    );
  if (preview.messenger)
    return (
      <Text size="xs" c="dimmed" data-testid="compose-messenger-hint">
        {t('compose.messengerLength')}
      </Text>
    );
  if (preview.optOutAdded)
    return (
      <Text size="xs" c="dimmed" data-testid="compose-optout-hint">
        {t('compose.optOutAdded')}
      </Text>
    );
  return (
    <Text size="xs" c="dimmed">
      {t('compose.perPage', { n: formatNumber(preview.perPage, language) })}
    </Text>
  );
}

/** A character as a badge; one a person cannot see is named instead of drawn as an empty box. */
export function CharacterBadge({ ch }: { ch: string }) {
  const { t } = useTranslation();
  const name = invisibleName(ch);
  return (
    <Badge
      variant="outline"
      color="yellow"
      radius="sm"
      style={{ textTransform: 'none' }}
      data-testid="costly-badge"
      title={codePoint(ch)}
    >
      {name === null ? ch : t(`compose.invisible.${name}`, { code: codePoint(ch) })}
    </Badge>
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
