// A line's or a receiver's number as every screen shows it: in the language's digits (Persian in
// Persian), read left to right so a +98 stays in front.
import type { ComponentPropsWithoutRef } from 'react';
import { digits } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';

export function PhoneNumber({ number, ...rest }: { number: string } & Omit<ComponentPropsWithoutRef<'bdi'>, 'dir'>) {
  const language = useLanguage();
  return (
    <bdi {...rest} dir="ltr">
      {digits(number, language)}
    </bdi>
  );
}
