// A page that throws shows a message and a way out instead of a blank window; the shell and the
// other pages keep working.
import { Alert, Button, Stack } from '@mantine/core';
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
              {this.state.error?.message}
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
