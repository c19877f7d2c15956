// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { historyKey } from './shortcuts';

const key = (over: Partial<Parameters<typeof historyKey>[0]>) =>
  historyKey({
    key: 'z',
    ctrlKey: true,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    target: document.body,
    ...over,
  });

describe('historyKey', () => {
  it('maps Ctrl/⌘+Z to undo and Shift+Z or Y to redo', () => {
    expect(key({})).toBe('undo');
    expect(key({ ctrlKey: false, metaKey: true })).toBe('undo');
    expect(key({ key: 'Z', shiftKey: true })).toBe('redo');
    expect(key({ key: 'y' })).toBe('redo');
    expect(key({ ctrlKey: false })).toBeNull();
    expect(key({ key: 'x' })).toBeNull();
    expect(key({ altKey: true })).toBeNull();
  });

  it('leaves fields their own undo', () => {
    const input = document.createElement('input');
    const rich = document.createElement('div');
    rich.setAttribute('contenteditable', 'true');
    const inner = document.createElement('p');
    rich.appendChild(inner);
    expect(key({ target: input })).toBeNull();
    expect(key({ target: inner })).toBeNull();
  });
});
