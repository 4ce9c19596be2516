// One recipient's HTML body as their mail app would draw it, inside the app without any risk: the
// HTML sanitized (sanitize.ts) in a frame with every sandbox restriction (no scripts, no forms, no
// popups, an origin of its own), and a line saying what the preview leaves out.
import { Stack, Text } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { sanitizeEmailHtml } from './sanitize';

export function SafeHtmlFrame({ html, title, height = 360 }: { html: string; title: string; height?: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const safe = useMemo(() => sanitizeEmailHtml(html), [html]);
  return (
    <Stack gap={4}>
      <iframe
        title={title}
        // Every restriction: no scripts, forms, popups, top navigation or same-origin access.
        sandbox=""
        referrerPolicy="no-referrer"
        srcDoc={safe.document}
        data-testid="email-preview-frame"
        data-blocked-images={safe.blockedImages}
        style={{
          width: '100%',
          height,
          border: '1px solid var(--mantine-color-gray-3)',
          borderRadius: 'var(--mantine-radius-sm)',
          background: 'white',
        }}
      />
      {safe.blockedImages > 0 ? (
        <Text size="xs" c="dimmed" data-testid="email-preview-blocked" data-value={safe.blockedImages}>
          <IconPhotoOff size={12} style={{ verticalAlign: 'middle', marginInlineEnd: 4 }} />
          {t('email.preview.remoteBlocked', { n: formatNumber(safe.blockedImages, language) })}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {safe.links > 0 ? t('email.preview.sanitizedLinks') : t('email.preview.sanitized')}
      </Text>
    </Stack>
  );
}
