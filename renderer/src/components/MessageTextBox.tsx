// A message's text as the drawers and headers show it: in a grey box, line breaks kept, in the
// text's own direction (lib/direction.ts) and marked as the user's data, not a UI text.
import { Text, type TextProps } from '@mantine/core';
import { useTextDirection } from '../lib/direction';

export function MessageTextBox({
  text,
  ...rest
}: { text: string; 'data-testid'?: string } & Omit<TextProps, 'dir' | 'children'>) {
  return (
    <Text
      size="sm"
      className="final-text"
      dir={useTextDirection(text)}
      data-user-text
      p="sm"
      bg="gray.0"
      style={{ borderRadius: 6 }}
      {...rest}
    >
      {text}
    </Text>
  );
}
