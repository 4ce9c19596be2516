// A message text (or a name the user wrote) shown inside a line of the UI, set apart in its own
// direction: a Persian text that starts with {{NAME}}, a number or a Latin word still reads
// right to left (lib/direction.ts). `data-user-text` marks it as the user's data, not a UI text.
import type { ComponentPropsWithoutRef } from 'react';
import { useTextDirection } from '../lib/direction';

export function DirectedText({ text, ...rest }: { text: string } & Omit<ComponentPropsWithoutRef<'bdi'>, 'dir'>) {
  return (
    <bdi {...rest} dir={useTextDirection(text)} data-user-text>
      {text}
    </bdi>
  );
}
