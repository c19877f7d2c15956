import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, current, record, redo, startHistory, undo } from './history';

describe('page history', () => {
  it('starts with nothing to undo or redo', () => {
    const history = startHistory([{ uid: 'a' }]);
    expect(canUndo(history)).toBe(false);
    expect(canRedo(history)).toBe(false);
    expect(undo(history)).toBe(history);
  });

  it('appends a snapshot only when it differs from the current one', () => {
    const start = startHistory([{ uid: 'a', v: 1 }]);
    expect(record(start, [{ uid: 'a', v: 1 }])).toBe(start);
    const next = record(start, [{ uid: 'a', v: 2 }]);
    expect(next.entries).toHaveLength(2);
    expect(canUndo(next)).toBe(true);
    expect(canRedo(next)).toBe(false);
  });

  it('undoes and redoes, redo only while the cursor is not at the end', () => {
    let history = startHistory(1);
    history = record(history, 2);
    history = record(history, 3);
    history = undo(history);
    expect(current(history)).toBe(2);
    expect(canRedo(history)).toBe(true);
    history = undo(history);
    expect(current(history)).toBe(1);
    expect(canUndo(history)).toBe(false);
    history = redo(redo(history));
    expect(current(history)).toBe(3);
    expect(canRedo(history)).toBe(false);
    expect(redo(history)).toBe(history);
  });

  it('drops the states ahead of the cursor when a new one is recorded after undo', () => {
    let history = record(record(startHistory('a'), 'b'), 'c');
    history = record(undo(undo(history)), 'd');
    expect(history.entries).toEqual(['a', 'd']);
    expect(canRedo(history)).toBe(false);
  });
});
