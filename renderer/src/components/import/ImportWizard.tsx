// The import wizard: file → sheet & header → columns → segment → run → review. Each step is its
// own component; the state (and the run, which outlives this page) is the imports store's.
import { Alert, Stack, Stepper, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { digits } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import type { Step, WizardError } from '../../stores/imports';
import { FileStep } from './FileStep';
import { LayoutStep } from './LayoutStep';
import { MappingStep } from './MappingStep';
import { TargetStep } from './TargetStep';
import { RunStep } from './RunStep';
import { ReviewStep } from './ReviewStep';

const STEPS: Step[] = ['file', 'layout', 'mapping', 'target', 'running', 'review'];

export function ImportWizard({ segmentId }: { segmentId?: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { imports } = useStores();
  const step = useStore(imports, (s) => s.step);
  const error = useStore(imports, (s) => s.error);
  const goTo = useStore(imports, (s) => s.goTo);
  const setTarget = useStore(imports, (s) => s.setTarget);
  // Opened from a segment's "add rows": that segment is the destination.
  useEffect(() => {
    if (segmentId !== undefined) setTarget({ kind: 'existing', segmentId });
  }, [segmentId, setTarget]);
  const active = STEPS.indexOf(step);
  // Steps before the run can be revisited; the run and the review cannot be left by the stepper.
  const canVisit = (index: number) => index < active && active < STEPS.indexOf('running');
  return (
    <Stack data-testid="page-import" data-step={step} gap="md">
      <Title order={2}>{t('import.title')}</Title>
      <Stepper
        active={active}
        onStepClick={(index) => canVisit(index) && goTo(STEPS[index]!)}
        size="sm"
        allowNextStepsSelect={false}
      >
        {STEPS.map((name, index) => (
          <Stepper.Step
            key={name}
            label={t(`import.steps.${name}`)}
            icon={digits(index + 1, language)}
            allowStepSelect={canVisit(index)}
            data-testid={`import-step-${name}`}
          />
        ))}
      </Stepper>
      {error ? <ImportError error={error} /> : null}
      {step === 'file' && <FileStep />}
      {step === 'layout' && <LayoutStep />}
      {step === 'mapping' && <MappingStep />}
      {step === 'target' && <TargetStep />}
      {step === 'running' && <RunStep />}
      {step === 'review' && <ReviewStep />}
    </Stack>
  );
}

/** A file problem in the window's language (what happened, what to do), else the service's words. */
export function ImportError({ error }: { error: WizardError }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" data-testid="import-error" data-code={error.code ?? ''}>
      {error.code ? t(`import.errors.${error.code}`) : error.message}
    </Alert>
  );
}
