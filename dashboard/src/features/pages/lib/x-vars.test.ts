import { describe, expect, it } from 'vitest';
import { extractXVars, injectXVars } from './x-vars';

const hero = `<section class="vt-hero" x-vars='[{"name":"title","type":"text","label":"Título","value":"Olá > mundo"}]'>
  <h1>{{ title }}</h1>
</section>`;

describe('extractXVars', () => {
  it('moves the definitions out of the first element and strips the attribute', () => {
    const result = extractXVars(hero);
    expect(result).toEqual({
      ok: true,
      template: '<section class="vt-hero">\n  <h1>{{ title }}</h1>\n</section>',
      vars: [{ name: 'title', type: 'text', label: 'Título', value: 'Olá > mundo' }],
    });
  });

  it('skips leading comments and whitespace', () => {
    const result = extractXVars(
      `\n<!-- hero -->\n<div x-vars='[{"name":"n","type":"number","value":3}]'>{{ n }}</div>`,
    );
    expect(result.ok && result.vars).toEqual([{ name: 'n', type: 'number', value: 3 }]);
    expect(result.ok && result.template).toBe('\n<!-- hero -->\n<div>{{ n }}</div>');
  });

  it('leaves a template without definitions alone', () => {
    expect(extractXVars('<p>hi</p>')).toEqual({ ok: true, template: '<p>hi</p>', vars: [] });
    expect(extractXVars('plain text')).toEqual({ ok: true, template: 'plain text', vars: [] });
  });

  it('only reads the first element', () => {
    const result = extractXVars(`<div><span x-vars='[{"name":"a","type":"text"}]'></span></div>`);
    expect(result.ok && result.vars).toEqual([]);
  });

  it('explains unparseable definitions', () => {
    const bad = extractXVars(`<div x-vars='[{"name":"a",}]'></div>`);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason.length).toBeGreaterThan(0);
    expect(extractXVars(`<div x-vars='{"name":"a"}'></div>`)).toEqual({
      ok: false,
      reason: 'x-vars: expected a JSON array',
    });
    expect(extractXVars(`<div x-vars="[]"></div>`)).toEqual({
      ok: false,
      reason: 'the attribute must be single-quoted',
    });
  });

  it('refuses bad, reserved, duplicate names and unknown types', () => {
    expect(extractXVars(`<div x-vars='[{"name":"1a","type":"text"}]'></div>`).ok).toBe(false);
    expect(extractXVars(`<div x-vars='[{"name":"post","type":"text"}]'></div>`)).toEqual({
      ok: false,
      reason: 'x-vars[0]: "post" is reserved',
    });
    expect(
      extractXVars(`<div x-vars='[{"name":"a","type":"text"},{"name":"a","type":"text"}]'></div>`),
    ).toEqual({
      ok: false,
      reason: 'x-vars[1]: duplicate name "a"',
    });
    expect(extractXVars(`<div x-vars='[{"name":"a","type":"video"}]'></div>`)).toEqual({
      ok: false,
      reason: 'x-vars[0]: unknown type "video"',
    });
    expect(
      extractXVars(
        `<div x-vars='[{"name":"items","type":"list","vars":[{"name":"page","type":"text"}]}]'></div>`,
      ),
    ).toEqual({
      ok: false,
      reason: 'items.vars[0]: "page" is reserved',
    });
  });
});

describe('injectXVars', () => {
  it('round-trips with extractXVars, escaping single quotes', () => {
    const vars = [{ name: 'title', type: 'text' as const, value: "it's" }];
    const injected = injectXVars('<section class="a"><h1>{{ title }}</h1></section>', vars);
    expect(injected).toContain('\\u0027');
    expect(extractXVars(injected)).toEqual({
      ok: true,
      template: '<section class="a"><h1>{{ title }}</h1></section>',
      vars,
    });
  });

  it('does nothing without definitions', () => {
    expect(injectXVars('<p></p>', [])).toBe('<p></p>');
  });
});
