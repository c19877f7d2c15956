/**
 * The preview canvas: the srcdoc of a sandboxed iframe (allow-scripts only, so block code runs
 * on an opaque origin and never on the dashboard's). It holds the render API's head, each
 * block's css in <style>, its html and its js in <script>, and the canvas runtime: the iframe's
 * half of the protocol in canvas-protocol.ts (it accepts messages only from its parent).
 */
import { MAX_EDIT_DEPTH, MAX_EDIT_VALUE, type CanvasBlock } from './canvas-protocol';

/** Keeps text from closing the element it is inlined in. */
function inline(text: string, tag: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');
}

/** One block's markup: the wrapper the runtime also builds (see `build` below). */
export function blockMarkup(block: CanvasBlock, selected: boolean): string {
  const uid = block.uid.replace(/[^a-zA-Z0-9_-]/g, '');
  const style = block.css ? `<style>${inline(block.css, 'style')}</style>` : '';
  const script = block.js ? `<script>${inline(block.js, 'script')}</script>` : '';
  return `<div class="vt-block${selected ? ' vt-selected' : ''}" data-vt-uid="${uid}">${style}${block.html}${script}</div>`;
}

/** Editor-only outline of hovered and selected blocks. */
const CANVAS_STYLE = `
.vt-block{position:relative}
.vt-block:hover{outline:1px dashed #3b82f6;outline-offset:-1px}
.vt-block.vt-selected{outline:2px solid #2563eb;outline-offset:-2px}
#vt-canvas:empty{min-height:100vh}
.vt-editing{outline:2px dashed #f59e0b;outline-offset:2px;cursor:text}
`;

/**
 * The runtime, as plain ES5 text (it runs in the canvas, not through the bundler). It renders
 * blocks from `render` / `replace-block`, re-creating <script> elements so they run, reports
 * clicks as `select-block` and the block under the pointer as `hover-block` (links and forms do
 * nothing in the editor), scrolls a selected block
 * into view (once it is rendered, for one selected as it is added), and reports block boxes
 * with `layout` after renders, on scroll and on resize (the parent's drop overlay uses them).
 * After each render it dispatches `vitrine:render` on the document, so scripts from the head
 * (the effects runtime) can pick up blocks added after the page loaded.
 *
 * Inline editing: a double-click on text sends `edit-request` with the texts and markup of the
 * element and its ancestors inside the block; the parent, which alone knows the block's fields, answers
 * `edit-start` naming the element (by depth) when one of them is a text or rich-text field's.
 * The element is then editable (plain text, or markup for rich text) until Enter or blur, which
 * send `edit-commit` with the new text, or Escape, which puts the old content back and sends
 * `edit-cancel`. The runtime never names the field: the parent applies a commit to the field it
 * chose for that edit's token, and nothing else.
 */
export const CANVAS_RUNTIME = `(function () {
  var V = 1;
  var root = document.getElementById('vt-canvas');
  var selected = null;
  function send(body) { body.vitrine = V; parent.postMessage(body, '*'); }
  function activate(node) {
    var scripts = node.querySelectorAll('script');
    for (var i = 0; i < scripts.length; i++) {
      var old = scripts[i];
      var fresh = document.createElement('script');
      for (var j = 0; j < old.attributes.length; j++) fresh.setAttribute(old.attributes[j].name, old.attributes[j].value);
      fresh.text = old.text;
      old.parentNode.replaceChild(fresh, old);
    }
  }
  function build(block) {
    var el = document.createElement('div');
    el.className = 'vt-block' + (block.uid === selected ? ' vt-selected' : '');
    el.setAttribute('data-vt-uid', block.uid);
    if (block.css) { var s = document.createElement('style'); s.textContent = block.css; el.appendChild(s); }
    var body = document.createElement('div');
    body.innerHTML = block.html;
    while (body.firstChild) el.appendChild(body.firstChild);
    return el;
  }
  // Once in the document: scripts from the html are re-created so they run, then the block's js.
  function mount(el, block) {
    activate(el);
    if (block.js) { var js = document.createElement('script'); js.textContent = block.js; el.appendChild(js); }
  }
  function find(uid) {
    var all = root.querySelectorAll('[data-vt-uid]');
    for (var i = 0; i < all.length; i++) if (all[i].getAttribute('data-vt-uid') === uid) return all[i];
    return null;
  }
  var pending = false;
  function layout() {
    if (pending) return;
    pending = true;
    var run = function () {
      pending = false;
      var boxes = [];
      var all = root.querySelectorAll('[data-vt-uid]');
      var y = window.scrollY || 0;
      for (var i = 0; i < all.length; i++) {
        var r = all[i].getBoundingClientRect();
        boxes.push({ uid: all[i].getAttribute('data-vt-uid'), top: r.top + y, height: r.height });
      }
      send({ type: 'layout', boxes: boxes, scrollY: y });
    };
    if (window.requestAnimationFrame) window.requestAnimationFrame(run); else setTimeout(run, 0);
  }
  // A block asked to be shown before it was rendered (one just added): shown once it is.
  var reveal = null;
  function show(uid) {
    var target = find(uid);
    if (!target) return false;
    if (target.scrollIntoView) target.scrollIntoView({ block: 'nearest' });
    return true;
  }
  function select(uid) {
    selected = uid;
    var all = root.querySelectorAll('[data-vt-uid]');
    for (var i = 0; i < all.length; i++) {
      all[i].classList.toggle('vt-selected', all[i].getAttribute('data-vt-uid') === uid);
    }
  }
  function rendered() {
    try { document.dispatchEvent(new CustomEvent('vitrine:render')); } catch (e) {}
    if (reveal && show(reveal)) reveal = null;
    layout();
  }
  // Inline editing: the element double-clicked last, and the edit under way.
  var clicked = null;
  var editing = null;
  function finish(commit) {
    var e = editing;
    if (!e) return;
    editing = null;
    e.el.removeEventListener('blur', onEditBlur);
    e.el.removeEventListener('keydown', onEditKey);
    e.el.removeAttribute('contenteditable');
    e.el.classList.remove('vt-editing');
    if (commit) {
      send({ type: 'edit-commit', token: e.token, value: e.rich ? e.el.innerHTML : e.el.textContent });
    } else {
      e.el.innerHTML = e.before;
      send({ type: 'edit-cancel', token: e.token });
    }
    layout();
  }
  function onEditBlur() { finish(true); }
  function onEditKey(event) {
    if (event.key === 'Escape') { event.preventDefault(); finish(false); }
    else if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); finish(true); }
  }
  function begin(el, token, rich) {
    editing = { el: el, token: token, rich: rich, before: el.innerHTML };
    el.setAttribute('contenteditable', rich ? 'true' : 'plaintext-only');
    if (!rich && el.contentEditable !== 'plaintext-only') el.setAttribute('contenteditable', 'true');
    el.classList.add('vt-editing');
    el.addEventListener('blur', onEditBlur);
    el.addEventListener('keydown', onEditKey);
    if (el.focus) el.focus();
    var selection = window.getSelection ? window.getSelection() : null;
    if (selection && document.createRange) {
      var range = document.createRange();
      range.selectNodeContents(el);
      selection.removeAllRanges();
      selection.addRange(range);
    }
  }
  // A render can take the edited element away: the edit ends with it, unsent.
  function dropDetached() {
    if (editing && !root.contains(editing.el)) editing = null;
  }
  document.addEventListener('dblclick', function (event) {
    if (editing) return;
    var target = event.target && event.target.nodeType === 3 ? event.target.parentElement : event.target;
    var block = target && target.closest ? target.closest('[data-vt-uid]') : null;
    if (!block) return;
    var texts = [];
    var htmls = [];
    for (var el = target; el && el !== block && texts.length < ${MAX_EDIT_DEPTH}; el = el.parentElement) {
      var text = el.textContent || '';
      var html = el.innerHTML;
      if (html.length > ${MAX_EDIT_VALUE}) break;
      texts.push(text);
      htmls.push(html);
    }
    if (texts.length === 0) return;
    clicked = { uid: block.getAttribute('data-vt-uid'), el: target };
    send({ type: 'edit-request', uid: clicked.uid, texts: texts, htmls: htmls });
  }, true);
  window.addEventListener('message', function (event) {
    if (event.source !== parent) return;
    var data = event.data;
    if (!data || data.vitrine !== V) return;
    if (data.type === 'render') {
      selected = data.selected || null;
      root.textContent = '';
      for (var i = 0; i < data.blocks.length; i++) { var el = build(data.blocks[i]); root.appendChild(el); mount(el, data.blocks[i]); }
      dropDetached();
      rendered();
    } else if (data.type === 'replace-block') {
      var old = find(data.block.uid);
      if (!old) return;
      var fresh = build(data.block);
      old.parentNode.replaceChild(fresh, old);
      mount(fresh, data.block);
      dropDetached();
      rendered();
    } else if (data.type === 'select') {
      select(data.uid || null);
      reveal = data.uid && !show(data.uid) ? data.uid : null;
    } else if (data.type === 'edit-start') {
      if (editing || !clicked || clicked.uid !== data.uid || typeof data.depth !== 'number') return;
      var block = find(data.uid);
      var target = clicked.el;
      for (var d = 0; d < data.depth && target; d++) target = target.parentElement;
      if (!block || !target || target === block || !block.contains(target)) return;
      begin(target, String(data.token), data.rich === true);
    }
  });
  document.addEventListener('click', function (event) {
    var target = event.target;
    var block = target && target.closest ? target.closest('[data-vt-uid]') : null;
    if (target && target.closest && target.closest('a')) event.preventDefault();
    if (block) send({ type: 'select-block', uid: block.getAttribute('data-vt-uid') });
  }, true);
  document.addEventListener('submit', function (event) { event.preventDefault(); }, true);
  // The block under the pointer, for the parent's block label (shown on hover and selection).
  var hovered = null;
  function hover(uid) { if (uid !== hovered) { hovered = uid; send({ type: 'hover-block', uid: uid }); } }
  document.addEventListener('mouseover', function (event) {
    var target = event.target;
    var block = target && target.closest ? target.closest('[data-vt-uid]') : null;
    hover(block ? block.getAttribute('data-vt-uid') : null);
  }, true);
  document.documentElement.addEventListener('mouseleave', function () { hover(null); });
  window.addEventListener('scroll', layout, { passive: true });
  window.addEventListener('resize', layout);
  document.addEventListener('load', layout, true);
  // Blocks change size on their own (fonts, their scripts, effects): report the new boxes.
  if (window.ResizeObserver) new ResizeObserver(layout).observe(root);
  send({ type: 'ready' });
  layout();
})();`;

/** The whole srcdoc: head from the render API, the blocks, the runtime. */
export function canvasDocument(head: string, blocks: CanvasBlock[], selected: string | null): string {
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    head,
    `<style>${CANVAS_STYLE}</style></head><body><div id="vt-canvas">`,
    blocks.map((block) => blockMarkup(block, block.uid === selected)).join(''),
    `</div><script>${inline(CANVAS_RUNTIME, 'script')}</script></body></html>`,
  ].join('');
}
