import type { ReactNode } from 'react';

interface LiveStatusProps {
  /** A `<div>`, or a `<span>` inside a line of text or buttons. */
  as?: 'div' | 'span';
  className?: string;
  testId: string;
  /** A tooltip (the last error of a run). */
  title?: string | undefined;
  /** `data-*` attributes, the state tests and styles read (`data-step`, `data-running`). */
  data?: Record<`data-${string}`, string | boolean | undefined>;
  children: ReactNode;
}

/**
 * Progress a screen reports as it goes (a deploy's steps, the thumbnails being made): a polite
 * live region (`role="status"`), which assistive technology reads when it changes.
 */
export function LiveStatus({
  as: Element = 'div',
  className,
  testId,
  title,
  data,
  children,
}: LiveStatusProps) {
  return (
    <Element
      className={className}
      role="status"
      aria-live="polite"
      data-testid={testId}
      title={title}
      {...data}
    >
      {children}
    </Element>
  );
}
