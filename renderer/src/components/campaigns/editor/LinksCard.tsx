// The campaign's links (spec 4.3: up to 10): each address as typed in the text becomes every
// recipient's own short link, or, untracked, stays its own address with the UTM tags (no clicks
// counted). Shown per link from the core's quote: whether the text has it (else it gets no short
// link, and can be put in at the cursor), where a visit goes (with the UTM tags), what the text
// carries in its place and how many characters it adds. Short links no phone could open are
// refused here with the ways out (LinkReachChoices).
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import {
  DEFAULT_UTM_MEDIUM,
  DEFAULT_UTM_SOURCE,
  DEFAULT_UTM_CAMPAIGN,
  MAX_LINKS,
  type CampaignDraftFields,
  type CampaignQuote,
} from '../../../../../shared/campaigns';
import { digits, formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { useEditor, type BodyInsert } from './useEditor';
import { LinkReachChoices } from './LinkReachChoices';

type Link = CampaignDraftFields['links'][number];

export function LinksCard({ insert }: Pick<BodyInsert, 'insert'>) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { links, utm, trackLinks, quote, update, ready } = useEditor(
    useShallow((s) => ({
      links: s.fields.links,
      utm: s.fields.utm,
      trackLinks: s.fields.track_links,
      quote: s.quote,
      update: s.update,
      ready: s.status === 'ready' && s.created === null,
    })),
  );
  const quoted = quote?.links ?? [];
  const setLink = (index: number, changes: Partial<Link>) =>
    update({ links: links.map((link, i) => (i === index ? { ...link, ...changes } : link)) });
  const tracked = links.some((link) => link.has_utm);

  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('campaignEditor.links')}</Title>
          <Text size="xs" c="dimmed">
            {t('campaignEditor.linksCount', { n: digits(links.length, language), max: digits(MAX_LINKS, language) })}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t(trackLinks ? 'campaignEditor.linksHint' : 'campaignEditor.linksHintUntracked')}
        </Text>
        <Switch
          label={t('campaignEditor.trackLinks')}
          description={t(trackLinks ? 'campaignEditor.trackLinksOn' : 'campaignEditor.trackLinksOff')}
          checked={trackLinks}
          onChange={(e) => update({ track_links: e.currentTarget.checked })}
          disabled={!ready}
          data-testid="editor-track-links"
        />
        <LinkReachChoices />
        {links.map((link, index) => (
          <LinkRow
            key={index}
            index={index}
            link={link}
            // The quote may lag the typing: its word on a link counts only for the same address.
            info={quoted.find((q) => q.idx === index && q.actual_url === link.actual_url.trim())}
            tracked={quote?.track_links ?? trackLinks}
            disabled={!ready}
            onChange={(changes) => setLink(index, changes)}
            onRemove={() => update({ links: links.filter((_, i) => i !== index) })}
            onInsert={() => insert(link.actual_url.trim(), { spaced: true })}
          />
        ))}
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            disabled={!ready || links.length >= MAX_LINKS}
            onClick={() => update({ links: [...links, { actual_url: '', has_utm: true }] })}
            data-testid="editor-add-link"
          >
            {t('campaignEditor.addLink')}
          </Button>
        </Group>
        {tracked ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('campaignEditor.utm')}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
              <TextInput
                label="utm_source"
                placeholder={DEFAULT_UTM_SOURCE}
                value={utm.utm_source ?? ''}
                onChange={(e) => update({ utm: { ...utm, utm_source: e.currentTarget.value } })}
                disabled={!ready}
                dir="ltr"
                data-testid="editor-utm-source"
              />
              <TextInput
                label="utm_medium"
                placeholder={DEFAULT_UTM_MEDIUM}
                value={utm.utm_medium ?? ''}
                onChange={(e) => update({ utm: { ...utm, utm_medium: e.currentTarget.value } })}
                disabled={!ready}
                dir="ltr"
                data-testid="editor-utm-medium"
              />
              <TextInput
                label="utm_campaign"
                placeholder={DEFAULT_UTM_CAMPAIGN}
                value={utm.utm_campaign ?? ''}
                onChange={(e) => update({ utm: { ...utm, utm_campaign: e.currentTarget.value } })}
                disabled={!ready}
                dir="ltr"
                data-testid="editor-utm-campaign"
              />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t('campaignEditor.utmHint', { id: DEFAULT_UTM_CAMPAIGN })}
            </Text>
          </Stack>
        ) : null}
        <LinkCharacters quoted={quoted} language={language} />
      </Stack>
    </Paper>
  );
}

function LinkRow({
  index,
  link,
  info,
  tracked,
  disabled,
  onChange,
  onRemove,
  onInsert,
}: {
  index: number;
  link: Link;
  info: CampaignQuote['links'][number] | undefined;
  /** Whether the quote wrote it as a short link (else as its own address). */
  tracked: boolean;
  disabled: boolean;
  onChange(changes: Partial<Link>): void;
  onRemove(): void;
  onInsert(): void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const n = digits(index + 1, language);
  return (
    <Paper withBorder p="sm" radius="sm" data-testid={`editor-link-${index}`}>
      <Stack gap={6}>
        <Group align="end" wrap="nowrap" gap="xs">
          <TextInput
            label={t('campaignEditor.linkUrl', { n })}
            placeholder="https://"
            value={link.actual_url}
            onChange={(e) => onChange({ actual_url: e.currentTarget.value })}
            disabled={disabled}
            dir="ltr"
            style={{ flex: 1 }}
            maxLength={2000}
            data-testid={`editor-link-url-${index}`}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            onClick={onRemove}
            disabled={disabled}
            aria-label={t('campaignEditor.removeLink', { n })}
            data-testid={`editor-link-remove-${index}`}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <Checkbox
          label={t('campaignEditor.linkUtm')}
          checked={link.has_utm}
          onChange={(e) => onChange({ has_utm: e.currentTarget.checked })}
          disabled={disabled}
          data-testid={`editor-link-utm-${index}`}
        />
        {info && !info.in_body ? (
          <Alert color="orange" p="xs" data-testid={`editor-link-missing-${index}`}>
            <Group justify="space-between" gap="xs">
              <Text size="sm">{t('campaignEditor.notInBody')}</Text>
              <Button
                size="compact-xs"
                variant="white"
                onClick={onInsert}
                disabled={disabled}
                data-testid={`editor-link-insert-${index}`}
              >
                {t('campaignEditor.insertLink')}
              </Button>
            </Group>
          </Alert>
        ) : null}
        {info ? (
          <Stack gap={2} data-testid={`editor-link-info-${index}`}>
            <Text size="xs" c="dimmed">
              {t('campaignEditor.goesTo')}{' '}
              <Anchor
                href={info.redirect_to}
                target="_blank"
                rel="noreferrer"
                size="xs"
                className="ltr-value"
                style={{ wordBreak: 'break-all' }}
              >
                {info.redirect_to}
              </Anchor>
            </Text>
            <Text size="xs" c="dimmed">
              {t(tracked ? 'campaignEditor.shortExample' : 'campaignEditor.writtenAs')}{' '}
              <span className="ltr-value" style={{ wordBreak: 'break-all' }}>
                {info.short_example}
              </span>
              {' · '}
              <span data-testid={`editor-link-added-${index}`}>
                {info.added_characters >= 0
                  ? t('campaignEditor.adds', {
                      count: info.added_characters,
                      n: `+${formatNumber(info.added_characters, language)}`,
                    })
                  : t('campaignEditor.saves', {
                      count: -info.added_characters,
                      n: `−${formatNumber(-info.added_characters, language)}`,
                    })}
              </span>
            </Text>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The sum over the links in the text: what they add to each recipient's text. */
function LinkCharacters({ quoted, language }: { quoted: CampaignQuote['links']; language: 'fa' | 'en' }) {
  const { t } = useTranslation();
  const inBody = quoted.filter((q) => q.in_body);
  if (inBody.length < 2) return null;
  const total = inBody.reduce((sum, q) => sum + q.added_characters, 0);
  return (
    <Text size="xs" c="dimmed">
      {t('campaignEditor.linksAdd', {
        count: Math.abs(total),
        n: `${total >= 0 ? '+' : '−'}${formatNumber(Math.abs(total), language)}`,
      })}
    </Text>
  );
}
