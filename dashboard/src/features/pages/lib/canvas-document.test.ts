// @vitest-environment node
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { blockMarkup, canvasDocument } from './canvas-document';

const hero = {
  uid: 'b-1',
  html: '<h1>Olá</h1>',
  css: 'h1{color:red}',
  js: 'window.ran = (window.ran || 0) + 1;',
};

/** The canvas in a jsdom window of its own (it is its own parent there). */
function boot(head = '<title>t</title>') {
  const sent: unknown[] = [];
  const dom = new JSDOM(canvasDocument(head, [hero], 'b-1'), {
    runScripts: 'dangerously',
    // The runtime posts to `parent` (the window itself here); record instead of delivering.
    beforeParse: (window) => {
      window.postMessage = ((data: unknown) => sent.push(data)) as typeof window.postMessage;
    },
  });
  return { window: dom.window, sent };
}

function deliver(window: JSDOM['window'], data: unknown, source: unknown) {
  window.dispatchEvent(new window.MessageEvent('message', { data, source: source as Window }));
}

describe('canvasDocument', () => {
  it('holds the head, each block with its css, html and js, and the runtime', () => {
    const doc = canvasDocument('<link rel="stylesheet" href="/fonts.css">', [hero], null);
    expect(doc).toContain('<link rel="stylesheet" href="/fonts.css">');
    expect(doc).toContain(
      '<div class="vt-block" data-vt-uid="b-1"><style>h1{color:red}</style><h1>Olá</h1><script>window.ran',
    );
    expect(doc).toContain("parent.postMessage(body, '*')");
  });

  it('keeps block code from closing its element', () => {
    const markup = blockMarkup(
      { uid: 'x"y', html: '', css: 'a{}</style><b>', js: 'var s = "</script><i>";' },
      true,
    );
    expect(markup).toContain('<\\/style><b>');
    expect(markup).toContain('"<\\/script><i>"');
    expect(markup).toContain('data-vt-uid="xy"');
    expect(markup).toContain('vt-block vt-selected');
  });

  it('runs block scripts and renders, replaces and selects blocks from its parent', () => {
    const { window, sent } = boot();
    const w = window as unknown as { ran?: number };
    expect(w.ran).toBe(1);
    deliver(
      window,
      {
        vitrine: 1,
        type: 'render',
        selected: null,
        blocks: [
          hero,
          { uid: 'b-2', html: '<p id="p">a</p><script>window.inner = 1</script>', css: '', js: '' },
        ],
      },
      window.parent,
    );
    const root = window.document.getElementById('vt-canvas');
    expect(root?.querySelectorAll('[data-vt-uid]')).toHaveLength(2);
    expect(w.ran).toBe(2);
    expect((window as unknown as { inner?: number }).inner).toBe(1);

    deliver(
      window,
      { vitrine: 1, type: 'replace-block', block: { uid: 'b-2', html: '<p id="p">b</p>', css: '', js: '' } },
      window.parent,
    );
    expect(window.document.getElementById('p')?.textContent).toBe('b');
    expect(root?.children[1]?.getAttribute('data-vt-uid')).toBe('b-2');

    deliver(window, { vitrine: 1, type: 'select', uid: 'b-2' }, window.parent);
    expect(root?.children[1]?.classList.contains('vt-selected')).toBe(true);
    expect(root?.children[0]?.classList.contains('vt-selected')).toBe(false);
    expect(sent).toContainEqual({ vitrine: 1, type: 'ready' });
  });

  it('scrolls a block selected before it is rendered into view once a render brings it', () => {
    const { window } = boot();
    const shown: string[] = [];
    window.HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      shown.push(this.getAttribute('data-vt-uid') ?? '');
    };
    // "Adicionar": the parent selects the new block while its html is still being rendered.
    deliver(window, { vitrine: 1, type: 'select', uid: 'b-new' }, window.parent);
    expect(shown).toEqual([]);
    const fresh = { uid: 'b-new', html: '<p>novo</p>', css: '', js: '' };
    deliver(window, { vitrine: 1, type: 'render', selected: 'b-new', blocks: [hero, fresh] }, window.parent);
    expect(shown).toEqual(['b-new']);
    const root = window.document.getElementById('vt-canvas');
    expect(root?.children[1]?.classList.contains('vt-selected')).toBe(true);
    // Shown once: later renders leave the scroll alone.
    deliver(window, { vitrine: 1, type: 'replace-block', block: fresh }, window.parent);
    expect(shown).toEqual(['b-new']);
    // A block already there is shown at once.
    deliver(window, { vitrine: 1, type: 'select', uid: 'b-1' }, window.parent);
    expect(shown).toEqual(['b-new', 'b-1']);
  });

  it('ignores messages that are not from its parent or have another version', () => {
    const { window } = boot();
    const other = new JSDOM('').window;
    deliver(window, { vitrine: 1, type: 'render', selected: null, blocks: [] }, other);
    deliver(window, { vitrine: 2, type: 'render', selected: null, blocks: [] }, window.parent);
    expect(window.document.querySelectorAll('[data-vt-uid]')).toHaveLength(1);
  });

  it('reports the block under the pointer as hover-block, once per change, and null when it leaves', () => {
    const { window, sent } = boot();
    const hovers = () => sent.filter((data) => (data as { type: string }).type === 'hover-block');
    const over = (element: Element) =>
      element.dispatchEvent(new window.MouseEvent('mouseover', { bubbles: true }));
    const heading = window.document.querySelector('[data-vt-uid="b-1"] h1') as Element;
    over(heading);
    over(heading);
    over(window.document.body);
    window.document.documentElement.dispatchEvent(new window.MouseEvent('mouseleave'));
    over(heading);
    window.document.documentElement.dispatchEvent(new window.MouseEvent('mouseleave'));
    expect(hovers()).toEqual([
      { vitrine: 1, type: 'hover-block', uid: 'b-1' },
      { vitrine: 1, type: 'hover-block', uid: null },
      { vitrine: 1, type: 'hover-block', uid: 'b-1' },
      { vitrine: 1, type: 'hover-block', uid: null },
    ]);
  });

  it('reports a click as select-block and keeps links from navigating', () => {
    const { window, sent } = boot();
    const root = window.document.getElementById('vt-canvas');
    root!.innerHTML =
      '<div class="vt-block" data-vt-uid="b-9"><a id="a" href="https://example.com">x</a></div>';
    const click = new window.MouseEvent('click', { bubbles: true, cancelable: true });
    window.document.getElementById('a')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(sent).toContainEqual({ vitrine: 1, type: 'select-block', uid: 'b-9' });
  });

  it('edits a double-clicked text in place once the parent names the element, and commits it', () => {
    const { window, sent } = boot();
    const root = window.document.getElementById('vt-canvas')!;
    root.innerHTML =
      '<div class="vt-block" data-vt-uid="b-9"><section><h2 id="h"><span id="s">Olá</span> mundo</h2></section></div>';
    const span = window.document.getElementById('s')!;
    span.dispatchEvent(new window.MouseEvent('dblclick', { bubbles: true }));
    expect(sent.at(-1)).toEqual({
      vitrine: 1,
      type: 'edit-request',
      uid: 'b-9',
      texts: ['Olá', 'Olá mundo', 'Olá mundo'],
      htmls: ['Olá', '<span id="s">Olá</span> mundo', '<h2 id="h"><span id="s">Olá</span> mundo</h2>'],
    });
    // Another block's uid, or a depth outside the block, starts nothing.
    deliver(
      window,
      { vitrine: 1, type: 'edit-start', uid: 'b-1', depth: 1, token: 't0', rich: false },
      window.parent,
    );
    deliver(
      window,
      { vitrine: 1, type: 'edit-start', uid: 'b-9', depth: 3, token: 't0', rich: false },
      window.parent,
    );
    expect(root.querySelector('[contenteditable]')).toBeNull();

    deliver(
      window,
      { vitrine: 1, type: 'edit-start', uid: 'b-9', depth: 1, token: 't1', rich: false },
      window.parent,
    );
    const heading = window.document.getElementById('h')!;
    expect(heading.getAttribute('contenteditable')).not.toBeNull();
    expect(heading.classList.contains('vt-editing')).toBe(true);
    heading.textContent = 'Tchau';
    heading.dispatchEvent(
      new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }),
    );
    expect(sent.at(-1)).toEqual({ vitrine: 1, type: 'edit-commit', token: 't1', value: 'Tchau' });
    expect(heading.hasAttribute('contenteditable')).toBe(false);
    // Blur after the commit sends nothing more.
    const count = sent.length;
    heading.dispatchEvent(new window.FocusEvent('blur'));
    expect(sent).toHaveLength(count);
  });

  it('commits rich text as markup on blur, and Escape puts the old content back', () => {
    const { window, sent } = boot();
    const root = window.document.getElementById('vt-canvas')!;
    root.innerHTML = '<div class="vt-block" data-vt-uid="b-9"><div id="body"><p id="p">a</p></div></div>';
    const start = (token: string) => {
      window.document
        .getElementById('p')!
        .dispatchEvent(new window.MouseEvent('dblclick', { bubbles: true }));
      deliver(
        window,
        { vitrine: 1, type: 'edit-start', uid: 'b-9', depth: 1, token, rich: true },
        window.parent,
      );
      return window.document.getElementById('body')!;
    };
    let body = start('t1');
    expect(body.getAttribute('contenteditable')).toBe('true');
    body.innerHTML = '<p id="p">a <b>b</b></p>';
    body.dispatchEvent(new window.FocusEvent('blur'));
    expect(sent.at(-1)).toEqual({
      vitrine: 1,
      type: 'edit-commit',
      token: 't1',
      value: '<p id="p">a <b>b</b></p>',
    });

    body = start('t2');
    body.innerHTML = '<p id="p">gone</p>';
    body.dispatchEvent(
      new window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }),
    );
    expect(sent.at(-1)).toEqual({ vitrine: 1, type: 'edit-cancel', token: 't2' });
    expect(body.innerHTML).toBe('<p id="p">a <b>b</b></p>');
    expect(body.hasAttribute('contenteditable')).toBe(false);
  });
});
