import { describe, expect, it } from 'vitest';
import { renderEmailTemplate, templateVariables } from './email-template';

describe('{{ variable }} in an email', () => {
  it('fills a recipient’s values over the global ones, with optional spaces', () => {
    const template = 'Hi {{name}}, {{ greeting }} from {{  shop }}';
    expect(
      renderEmailTemplate(template, {
        global: { greeting: 'hello', shop: 'Acme', name: 'friend' },
        recipient: { name: 'Sara', greeting: 'سلام' },
      }),
    ).toBe('Hi Sara, سلام from Acme');
  });

  it('renders a variable without a value as nothing, and reads dotted names', () => {
    expect(renderEmailTemplate('[{{missing}}]', { global: {} })).toBe('[]');
    expect(renderEmailTemplate('#{{ order.id }}', { recipient: { order: { id: 42 } } })).toBe('#42');
    expect(renderEmailTemplate('{{a.b}}', { recipient: { 'a.b': 'flat' } })).toBe('flat');
    expect(renderEmailTemplate('{{n}} {{t}} {{z}}', { recipient: { n: 0, t: false, z: null } })).toBe('0 false ');
  });

  it('escapes values in HTML bodies only', () => {
    const values = { recipient: { name: '<b>Tom & "Jerry"</b>' } };
    expect(renderEmailTemplate('<p>{{name}}</p>', values, { html: true })).toBe(
      '<p>&#60;b&#62;Tom &#38; &#34;Jerry&#34;&#60;/b&#62;</p>',
    );
    expect(renderEmailTemplate('{{name}}', values)).toBe('<b>Tom & "Jerry"</b>');
  });

  it('leaves what is not a variable as written', () => {
    expect(renderEmailTemplate('{{ 1 + 2 }} {{}} {{ a b }} {{x', { recipient: { x: 'no' } })).toBe(
      '{{ 1 + 2 }} {{}} {{ a b }} {{x',
    );
    expect(renderEmailTemplate('no variables', { recipient: { a: 1 } })).toBe('no variables');
  });

  it('does not read inherited properties', () => {
    expect(renderEmailTemplate('{{constructor}}{{toString}}', { recipient: {} })).toBe('');
  });

  it('lists the variables once, in order', () => {
    expect(templateVariables('{{b}} {{ a }} {{b}} {{ order.id }} {{ 1 + 2 }}')).toEqual(['b', 'a', 'order.id']);
  });

  it('stays linear on long runs of braces and spaces', () => {
    const started = performance.now();
    renderEmailTemplate(`{{${' '.repeat(100_000)}`, { recipient: {} });
    renderEmailTemplate('{{'.repeat(50_000), { recipient: {} });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
