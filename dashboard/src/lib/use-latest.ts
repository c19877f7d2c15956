import { useLayoutEffect, useRef } from 'react';

/**
 * A ref that always holds the value of the last render, for callbacks that run later (an upload
 * that finishes, a timer) and must see the current props. Written after each commit, not during
 * render (render stays pure, as the React Compiler's `react-hooks/refs` rule asks); a layout effect
 * so no event handler or timer can run between the commit and the update.
 */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
