import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  /** 1 for a screen's title, 2 for a section's (a card's, a list's). */
  level?: 1 | 2;
  titleTestId?: string;
  /** The element: a `<header>`, or a `<div>` where the screen keeps one. */
  as?: 'header' | 'div';
  /** What stands beside the title (its buttons), in a `.button-row` unless `actionsClassName`. */
  children?: ReactNode;
  actionsClassName?: string;
}

/**
 * The title row of a screen or a section (`.page-header`): the heading at the start, its actions
 * at the end.
 */
export function PageHeader({
  title,
  level = 1,
  titleTestId,
  as: Element = 'header',
  children,
  actionsClassName = 'button-row',
}: PageHeaderProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <Element className="page-header">
      <Heading data-testid={titleTestId}>{title}</Heading>
      {children !== undefined && <div className={actionsClassName}>{children}</div>}
    </Element>
  );
}
