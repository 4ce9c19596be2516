// The app shell: header (name, account, credit), navigation, the banner while the core cannot be
// reached (web mode), the banner of a line paused at its provider, and the current page.
import { Alert, AppShell, Badge, Burger, Group, Loader, NavLink, Select, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAddressBook,
  IconChartBar,
  IconInbox,
  IconList,
  IconMail,
  IconPlugConnectedX,
  IconSend,
  IconSettings,
  IconSpeakerphone,
  type Icon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../stores/context';
import { sessionSelectors } from '../stores/session';
import { useRoute, type Page } from './useRoute';
import { Money } from './Money';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ErrorNotifier } from './ErrorNotifier';
import { ErrorBoundary } from './ErrorBoundary';
import { WindowFileDrop } from './import/WindowFileDrop';
import { useLanguage } from '../i18n/useLanguage';
import { formatNumber } from '../lib/format';
import { PausedBanner } from './gateways/PausedLines';

// Pages load apart from the first script the window parses (the charts of the dashboard, the
// settings forms), on first visit, and all of them a moment after the first page is drawn: a page
// opened while the server is out of reach (web mode) is then already here.
const PAGE_MODULES = {
  dashboard: () => import('../pages/DashboardPage'),
  compose: () => import('../pages/ComposePage'),
  messages: () => import('../pages/MessagesPage'),
  inbox: () => import('../pages/InboxPage'),
  contacts: () => import('../pages/ContactsPage'),
  campaigns: () => import('../pages/CampaignsPage'),
  email: () => import('../pages/EmailPage'),
  settings: () => import('../pages/SettingsPage'),
};
const DashboardPage = lazy(() => PAGE_MODULES.dashboard().then((m) => ({ default: m.DashboardPage })));
const ComposePage = lazy(() => PAGE_MODULES.compose().then((m) => ({ default: m.ComposePage })));
const MessagesPage = lazy(() => PAGE_MODULES.messages().then((m) => ({ default: m.MessagesPage })));
const InboxPage = lazy(() => PAGE_MODULES.inbox().then((m) => ({ default: m.InboxPage })));
const ContactsPage = lazy(() => PAGE_MODULES.contacts().then((m) => ({ default: m.ContactsPage })));
const CampaignsPage = lazy(() => PAGE_MODULES.campaigns().then((m) => ({ default: m.CampaignsPage })));
const EmailPage = lazy(() => PAGE_MODULES.email().then((m) => ({ default: m.EmailPage })));
const SettingsPage = lazy(() => PAGE_MODULES.settings().then((m) => ({ default: m.SettingsPage })));
const PRELOAD_AFTER_MS = 1500;

const NAV: Array<{ page: Page; icon: Icon }> = [
  { page: 'dashboard', icon: IconChartBar },
  { page: 'compose', icon: IconSend },
  { page: 'contacts', icon: IconAddressBook },
  { page: 'campaigns', icon: IconSpeakerphone },
  { page: 'email', icon: IconMail },
  { page: 'messages', icon: IconList },
  { page: 'inbox', icon: IconInbox },
  { page: 'settings', icon: IconSettings },
];

export function Shell({ offline = false }: { offline?: boolean }) {
  const { t } = useTranslation();
  const [page, go] = useRoute();
  const [opened, { toggle, close }] = useDisclosure();
  // Set once every page is here (`data-pages-loaded` on the shell): from then on any page opens
  // without the server (tests of web mode wait for it before taking the server away).
  const [pagesLoaded, setPagesLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void Promise.all(Object.values(PAGE_MODULES).map((load) => load())).then(
        () => live && setPagesLoaded(true),
        () => undefined,
      );
    }, PRELOAD_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  return (
    <AppShell
      data-pages-loaded={pagesLoaded || undefined}
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.menu')} />
            <Title order={3} c="teal.8" data-testid="app-title">
              {t('app.name')}
            </Title>
            <Text c="dimmed" size="sm" visibleFrom="md">
              {t('app.tagline')}
            </Text>
          </Group>
          <AccountBar />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" data-testid="nav">
        {NAV.map(({ page: target, icon: IconComponent }) => (
          <NavLink
            key={target}
            component="a"
            href={`#/${target}`}
            label={t(`nav.${target}`)}
            leftSection={<IconComponent size={18} stroke={1.6} />}
            rightSection={target === 'inbox' ? <UnreadBadge /> : undefined}
            active={page === target}
            data-testid={`nav-${target}`}
            onClick={(event) => {
              event.preventDefault();
              go(target);
              close();
            }}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        {offline ? <OfflineBanner /> : null}
        <PausedBanner />
        <WindowFileDrop />
        <ErrorNotifier />
        <ErrorBoundary resetKey={page}>
          <Suspense fallback={<Loader size="sm" m="xl" />}>
            {page === 'dashboard' && <DashboardPage />}
            {page === 'compose' && <ComposePage />}
            {page === 'contacts' && <ContactsPage />}
            {page === 'campaigns' && <CampaignsPage />}
            {page === 'email' && <EmailPage />}
            {page === 'messages' && <MessagesPage />}
            {page === 'inbox' && <InboxPage />}
            {page === 'settings' && <SettingsPage />}
          </Suspense>
        </ErrorBoundary>
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The core cannot be reached: the pages keep what they last showed, the transport reconnects by
 * itself. Kept in view while scrolling; announced to screen readers.
 */
function OfflineBanner() {
  const { t } = useTranslation();
  return (
    <Alert
      data-testid="offline-banner"
      role="status"
      color="orange"
      variant="filled"
      icon={<IconPlugConnectedX size={20} />}
      mb="md"
      py="xs"
      style={{ position: 'sticky', top: 'calc(var(--app-shell-header-offset, 0rem) + 0.5rem)', zIndex: 150 }}
    >
      {t('offline.banner')}
    </Alert>
  );
}

/** How many replies wait unread in the Inbox; nothing when none. */
function UnreadBadge() {
  const language = useLanguage();
  const unread = useStore(useStores().inbox, (s) => s.counts?.unread ?? 0);
  if (unread === 0) return null;
  return (
    <Badge size="sm" color="teal" circle={unread < 10} data-testid="nav-inbox-unread" data-value={unread}>
      {unread > 999 ? `${formatNumber(999, language)}+` : formatNumber(unread, language)}
    </Badge>
  );
}

/** The account the panel works on, and its credit. */
function AccountBar() {
  const { t } = useTranslation();
  const { session } = useStores();
  const { accounts, accountId, selectAccount } = useStore(
    session,
    useShallow((s) => ({ accounts: s.accounts, accountId: s.accountId, selectAccount: s.selectAccount })),
  );
  const credit = useStore(session, sessionSelectors.credit);
  return (
    <Group gap="md" wrap="nowrap">
      {credit !== null ? (
        <Group gap={6} wrap="nowrap" visibleFrom="xs">
          <Text size="sm" c="dimmed">
            {t('header.credit')}
          </Text>
          <Text size="sm" fw={600} data-testid="header-credit">
            <Money rials={credit} />
          </Text>
        </Group>
      ) : null}
      <Select
        aria-label={t('header.account')}
        data-testid="account-select"
        size="xs"
        w={150}
        allowDeselect={false}
        data={accounts.map((a) => ({ value: String(a.id), label: a.name }))}
        value={accountId === null ? null : String(accountId)}
        onChange={(value) => value && selectAccount(Number(value))}
        placeholder={t('header.noAccount')}
      />
    </Group>
  );
}
