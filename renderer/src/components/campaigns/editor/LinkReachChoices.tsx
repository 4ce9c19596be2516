// The core's refusal of short links no phone could open (a line that delivers through a real
// provider, links under this computer's own address or a private one), with the two ways out as
// actions: a public address of the business that forwards to Chapar (the short links' base, a
// setting of the workspace), or links sent untracked (their own address with the UTM tags, no
// click counts).
import { Alert, Button, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLinkOff, IconUnlink, IconWorldWww } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { GATEWAYS } from '../../../../../shared/gateways';
import { UNREACHABLE_LINKS } from '../../../stores/campaignEditor';
import { isolate } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { useEditor } from './useEditor';
import { useFaultText } from './useFaultText';

export function LinkReachChoices() {
  const { t } = useTranslation();
  const language = useLanguage();
  const describe = useFaultText();
  const { refused, sender, lines, linkSettings, saving, error, ready, loadLinkSettings, setLinkBase, update } =
    useEditor(
      useShallow((s) => ({
        // Untracked links need no base: the choice hides this at once, before the quote agrees.
        refused:
          s.fields.track_links &&
          (s.quote?.problem?.reason === UNREACHABLE_LINKS || s.createError?.reason === UNREACHABLE_LINKS),
        sender: s.fields.sender.trim(),
        lines: s.lines,
        linkSettings: s.linkSettings,
        saving: s.savingLinkBase,
        error: s.linkBaseError,
        ready: s.status === 'ready' && s.created === null,
        loadLinkSettings: s.loadLinkSettings,
        setLinkBase: s.setLinkBase,
        update: s.update,
      })),
    );
  const [base, setBase] = useState('');
  useEffect(() => {
    if (refused) void loadLinkSettings();
  }, [refused, loadLinkSettings]);
  if (!refused) return null;

  const kind = lines.find((line) => line.number === sender)?.gateway.kind;
  const provider = kind ? GATEWAYS[kind].label[language] : '';
  const save = async () => {
    if (base.trim() !== '' && (await setLinkBase(base.trim()))) setBase('');
  };
  return (
    <Alert
      color="orange"
      icon={<IconLinkOff size={18} />}
      title={t('campaignEditor.linkReach.title')}
      data-testid="editor-link-reach"
    >
      <Stack gap="sm">
        <Text size="sm">
          {t('campaignEditor.linkReach.body', {
            provider,
            base: isolate(linkSettings?.effective_base ?? ''),
          })}
        </Text>
        <Text size="sm" fw={600}>
          {t('campaignEditor.linkReach.choose')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <Paper withBorder p="sm" data-testid="editor-link-reach-base">
            <Stack gap={6}>
              <Title order={6}>
                <IconWorldWww size={16} style={{ verticalAlign: 'middle', marginInlineEnd: 6 }} />
                {t('campaignEditor.linkReach.baseTitle')}
              </Title>
              <Text size="xs" c="dimmed">
                {t('campaignEditor.linkReach.baseHint')}
              </Text>
              <TextInput
                aria-label={t('campaignEditor.linkReach.baseLabel')}
                placeholder="https://links.example.com"
                value={base}
                onChange={(e) => setBase(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void save();
                }}
                disabled={!ready || saving}
                dir="ltr"
                error={error ? describe(error) : undefined}
                data-testid="editor-link-base"
              />
              <Button
                size="xs"
                onClick={() => void save()}
                loading={saving}
                disabled={!ready || base.trim() === ''}
                data-testid="editor-link-base-save"
              >
                {t('campaignEditor.linkReach.baseSave')}
              </Button>
            </Stack>
          </Paper>
          <Paper withBorder p="sm" data-testid="editor-link-reach-untracked">
            <Stack gap={6} h="100%">
              <Title order={6}>
                <IconUnlink size={16} style={{ verticalAlign: 'middle', marginInlineEnd: 6 }} />
                {t('campaignEditor.linkReach.untrackedTitle')}
              </Title>
              <Text size="xs" c="dimmed" style={{ flex: 1 }}>
                {t('campaignEditor.linkReach.untrackedHint')}
              </Text>
              <Button
                size="xs"
                variant="light"
                onClick={() => update({ track_links: false })}
                disabled={!ready}
                data-testid="editor-link-untracked"
              >
                {t('campaignEditor.linkReach.untrackedAction')}
              </Button>
            </Stack>
          </Paper>
        </SimpleGrid>
      </Stack>
    </Alert>
  );
}
