// Settings → Email: the transport the app's email goes out through (the built-in sandbox, where
// nothing leaves the computer, by default; a provider's API; an SMTP server), its key or password
// (write-only: the page learns only that one is saved, and can replace or remove it), where such
// secrets are kept, the default sender, and a test of the saved connection. A field's fault is said
// beside it; the core's refusal of the whole form is said under it.
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconLock, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import {
  draftChanged,
  draftFaults,
  draftOf,
  inputOf,
  keyStillStored,
  passwordStillStored,
  type EmailConfig,
  type EmailSettingsDraft,
  type SecretDraft,
} from '../../stores/emailSettings';
import { EMAIL_TRANSPORTS, MAX_EMAIL_LENGTH, type EmailTransportKind } from '../../../../shared/email';
import { NumberField } from '../NumberField';

export function EmailSettings() {
  const { t } = useTranslation();
  const { config, version, error, load } = useStore(
    useStores().emailSettings,
    useShallow((s) => ({ config: s.config, version: s.version, error: s.error, load: s.load })),
  );
  useEffect(() => {
    void load();
  }, [load]);
  if (config) return <EmailForm key={version} config={config} />;
  return (
    <Paper withBorder p="md" maw={640} data-testid="email-settings">
      {error ? (
        <Alert color="red" title={t('emailSettings.loadFailed')}>
          {error}
        </Alert>
      ) : (
        <Text c="dimmed">{t('common.loading')}</Text>
      )}
    </Paper>
  );
}

function EmailForm({ config }: { config: EmailConfig }) {
  const { t } = useTranslation();
  const { save, saving, testing, test, testConnection } = useStore(
    useStores().emailSettings,
    useShallow((s) => ({
      save: s.save,
      saving: s.saving,
      testing: s.testing,
      test: s.test,
      testConnection: s.testConnection,
    })),
  );
  const [draft, setDraft] = useState<EmailSettingsDraft>(() => draftOf(config));
  // Faults are said once the user tried to save, so an empty form does not start in red.
  const [tried, setTried] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const faults = draftFaults(draft, config);
  const valid = Object.keys(faults).length === 0;
  const changed = draftChanged(draft, config);
  const fault = (field: keyof typeof faults) =>
    tried && faults[field] ? t(`emailSettings.faults.${faults[field]}`) : null;
  const edit = (patch: Partial<EmailSettingsDraft>) => {
    setDraft({ ...draft, ...patch });
    setRefusal(null);
  };

  /** Saves the draft; true when saved (the form is then drawn afresh from what the core answered). */
  const submit = async (): Promise<boolean> => {
    setTried(true);
    if (!valid) return false;
    const refused = await save(inputOf(draft));
    setRefusal(refused);
    return refused === null;
  };

  return (
    <Paper withBorder p="md" maw={640} data-testid="email-settings">
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (await submit()) notifications.show({ color: 'teal', message: t('common.saved') });
        }}
        noValidate
      >
        <Stack>
          <div>
            <Text fw={600}>{t('emailSettings.title')}</Text>
            <Text size="xs" c="dimmed">
              {t('emailSettings.hint')}
            </Text>
          </div>
          <Radio.Group
            label={t('emailSettings.transport')}
            value={draft.transport}
            onChange={(transport) => {
              // Another transport's empty fields are not faults yet: said once saving is tried.
              setTried(false);
              edit({ transport: transport as EmailTransportKind });
            }}
            data-testid="email-transport"
          >
            <Stack gap="sm" mt="xs">
              {EMAIL_TRANSPORTS.map((transport) => (
                <Radio
                  key={transport}
                  value={transport}
                  label={t(`emailSettings.transports.${transport}`)}
                  description={t(`emailSettings.transports.${transport}Hint`)}
                  data-testid={`email-transport-${transport}`}
                />
              ))}
            </Stack>
          </Radio.Group>

          {draft.transport === 'provider' ? (
            <Stack gap="sm" data-testid="email-provider">
              <TextInput
                label={t('emailSettings.providerUrl')}
                description={t('emailSettings.providerUrlHint')}
                value={draft.providerUrl}
                onChange={(e) => edit({ providerUrl: e.currentTarget.value })}
                error={fault('providerUrl')}
                placeholder="https://api.example.com"
                maxLength={2000}
                dir="ltr"
                data-testid="email-provider-url"
              />
              <TextInput
                label={t('emailSettings.accountId')}
                value={draft.providerAccountId}
                onChange={(e) => edit({ providerAccountId: e.currentTarget.value })}
                error={fault('providerAccountId')}
                maxLength={200}
                dir="ltr"
                w={240}
                data-testid="email-provider-account"
              />
              <SecretField
                label={t('emailSettings.apiKey')}
                placeholder={t('emailSettings.secret.newKey')}
                stored={keyStillStored(draft, config)}
                movedFrom={config.provider.key_set && !keyStillStored(draft, config)}
                draft={draft.key}
                onChange={(key) => edit({ key })}
                error={fault('key')}
                testId="email-provider-key"
              />
            </Stack>
          ) : null}

          {draft.transport === 'smtp' ? (
            <Stack gap="sm" data-testid="email-smtp">
              <Group align="start" wrap="nowrap">
                <TextInput
                  label={t('emailSettings.smtpHost')}
                  value={draft.smtpHost}
                  onChange={(e) => edit({ smtpHost: e.currentTarget.value })}
                  error={fault('smtpHost')}
                  placeholder="smtp.example.com"
                  maxLength={255}
                  dir="ltr"
                  style={{ flex: 1 }}
                  data-testid="email-smtp-host"
                />
                <NumberField
                  label={t('emailSettings.smtpPort')}
                  value={draft.smtpPort}
                  onChange={(smtpPort) => edit({ smtpPort })}
                  error={draft.smtpPort === '' ? fault('smtpPort') : undefined}
                  min={1}
                  max={65535}
                  thousandSeparator={false}
                  w={140}
                  data-testid="email-smtp-port"
                />
              </Group>
              <Switch
                checked={draft.smtpSecure}
                onChange={(e) => edit({ smtpSecure: e.currentTarget.checked })}
                label={t('emailSettings.smtpSecure')}
                description={t('emailSettings.smtpSecureHint')}
                data-testid="email-smtp-secure"
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('emailSettings.smtpUser')}
                  value={draft.smtpUser}
                  onChange={(e) => edit({ smtpUser: e.currentTarget.value })}
                  maxLength={500}
                  autoComplete="off"
                  dir="ltr"
                  data-testid="email-smtp-user"
                />
                <SecretField
                  label={t('emailSettings.smtpPassword')}
                  placeholder={t('emailSettings.secret.newPassword')}
                  stored={passwordStillStored(draft, config)}
                  movedFrom={config.smtp.password_set && !passwordStillStored(draft, config)}
                  draft={draft.password}
                  onChange={(password) => edit({ password })}
                  error={null}
                  testId="email-smtp-password"
                />
              </SimpleGrid>
            </Stack>
          ) : null}

          {draft.transport === 'sandbox' ? null : (
            <Group gap="xs" wrap="nowrap" align="start" data-testid="email-secret-storage">
              <IconLock size={16} style={{ flexShrink: 0, marginTop: 2 }} />
              <Text size="xs" c="dimmed">
                {t(`emailSettings.storage.${config.secret_storage}`)}
              </Text>
            </Group>
          )}

          <Stack gap="xs">
            <div>
              <Text fw={600} size="sm">
                {t('emailSettings.sender')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('emailSettings.senderHint')}
              </Text>
            </div>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('emailSettings.fromEmail')}
                value={draft.fromEmail}
                onChange={(e) => edit({ fromEmail: e.currentTarget.value })}
                error={fault('fromEmail')}
                placeholder="shop@example.com"
                maxLength={MAX_EMAIL_LENGTH}
                type="email"
                dir="ltr"
                data-testid="email-from-email"
              />
              <TextInput
                label={t('emailSettings.fromName')}
                value={draft.fromName}
                onChange={(e) => edit({ fromName: e.currentTarget.value })}
                maxLength={200}
                dir="auto"
                data-testid="email-from-name"
              />
            </SimpleGrid>
          </Stack>

          {refusal ? (
            <Alert color="red" data-testid="email-settings-error">
              {refusal}
            </Alert>
          ) : null}

          <Group justify="space-between" align="start">
            <Stack gap={2}>
              <Group gap="xs">
                <Button
                  variant="light"
                  loading={testing}
                  disabled={saving}
                  onClick={async () => {
                    if (changed && !(await submit())) return;
                    await testConnection();
                  }}
                  data-testid="email-test"
                >
                  {changed ? t('emailSettings.saveAndTest') : t('emailSettings.test')}
                </Button>
              </Group>
              <Text size="xs" c="dimmed">
                {t('emailSettings.testHint')}
              </Text>
            </Stack>
            <Button type="submit" loading={saving} disabled={!changed || (tried && !valid)} data-testid="email-save">
              {t('emailSettings.save')}
            </Button>
          </Group>

          {test ? (
            <Alert
              color={test.ok ? 'teal' : 'red'}
              icon={test.ok ? <IconCheck size={18} /> : <IconX size={18} />}
              title={test.ok ? undefined : t('emailSettings.testFailed')}
              data-testid="email-test-result"
              data-ok={test.ok}
            >
              {test.ok ? (
                t(config.transport === 'sandbox' ? 'emailSettings.testOkSandbox' : 'emailSettings.testOk')
              ) : test.error ? (
                <Code block dir="ltr" style={{ whiteSpace: 'pre-wrap' }}>
                  {test.error}
                </Code>
              ) : null}
            </Alert>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * A key or password that only goes in: when one is saved, a "saved" badge with Replace and Remove
 * (the value is never on the page); otherwise, or while replacing, an empty field to type it into.
 */
function SecretField({
  label,
  placeholder,
  stored,
  movedFrom,
  draft: given,
  onChange,
  error,
  testId,
}: {
  label: string;
  placeholder: string;
  /** A secret is saved and still goes to the server the form names. */
  stored: boolean;
  /** One is saved, but for the server the form named before: it will not be sent to this one. */
  movedFrom: boolean;
  draft: SecretDraft;
  onChange(draft: SecretDraft): void;
  error: string | null;
  testId: string;
}) {
  const { t } = useTranslation();
  // Kept for another server: the field asks for this server's secret.
  const draft: SecretDraft = !stored && given.action === 'keep' ? { action: 'replace', value: '' } : given;
  if (draft.action === 'replace')
    return (
      <Stack gap={4}>
        <PasswordInput
          label={label}
          placeholder={stored ? placeholder : undefined}
          description={movedFrom ? t('emailSettings.secret.newServer') : undefined}
          value={draft.value}
          onChange={(e) => onChange({ action: 'replace', value: e.currentTarget.value })}
          error={error}
          maxLength={1000}
          // Never offered to the browser's password manager, nor filled from it.
          autoComplete="new-password"
          dir="ltr"
          data-testid={testId}
        />
        {stored ? (
          <Button
            variant="subtle"
            size="compact-xs"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => onChange({ action: 'keep' })}
            data-testid={`${testId}-keep`}
          >
            {t('emailSettings.secret.keep')}
          </Button>
        ) : null}
      </Stack>
    );
  return (
    <Stack gap={4} data-testid={`${testId}-state`} data-state={draft.action === 'keep' ? 'saved' : 'removing'}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" mih={36}>
        {draft.action === 'keep' ? (
          <>
            <Badge color="teal" variant="light" leftSection={<IconLock size={12} />} data-testid={`${testId}-saved`}>
              {t('emailSettings.secret.saved')}
            </Badge>
            <Button
              variant="default"
              size="xs"
              onClick={() => onChange({ action: 'replace', value: '' })}
              data-testid={`${testId}-replace`}
            >
              {t('emailSettings.secret.replace')}
            </Button>
            <Button
              variant="subtle"
              color="red"
              size="xs"
              onClick={() => onChange({ action: 'remove' })}
              data-testid={`${testId}-remove`}
            >
              {t('emailSettings.secret.remove')}
            </Button>
          </>
        ) : (
          <>
            <Text size="sm" c="orange" data-testid={`${testId}-removing`}>
              {t('emailSettings.secret.removing')}
            </Text>
            <Button
              variant="subtle"
              size="xs"
              onClick={() => onChange({ action: 'keep' })}
              data-testid={`${testId}-undo`}
            >
              {t('emailSettings.secret.undo')}
            </Button>
          </>
        )}
      </Group>
      {error ? (
        <Text size="xs" c="red">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
