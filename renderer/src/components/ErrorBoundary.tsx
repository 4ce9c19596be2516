// A page that throws shows a message in the UI's language and a way out instead of a blank
// window; the shell and the other pages keep working. The program's own words (English, for
// whoever is asked for help) stay below it, set apart as technical text.
import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { Translation } from 'react-i18next';

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    // Going to another page clears the error.
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <Translation>
        {(t) => (
          <Stack maw={560} data-testid="page-error">
            <Alert color="red" title={t('common.error')}>
              <Stack gap="xs">
                <Text size="sm">{t('errors.page')}</Text>
                {this.state.error?.message ? (
                  <Code block dir="ltr" data-testid="page-error-detail">
                    {this.state.error.message}
                  </Code>
                ) : null}
              </Stack>
            </Alert>
            <Button variant="light" onClick={() => window.location.reload()}>
              {t('common.reload')}
            </Button>
          </Stack>
        )}
      </Translation>
    );
  }
}
