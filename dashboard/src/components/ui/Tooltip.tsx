import type { ReactElement, ReactNode } from 'react';
import { Tooltip as AriaTooltip, TooltipTrigger } from 'react-aria-components';

/**
 * A tooltip for a focusable React Aria element (a kit `Button`), shown on hover and on keyboard
 * focus and linked to it by `aria-describedby` (React Aria's `TooltipTrigger`). Escape hides it.
 */
export function Tooltip({
  content,
  children,
  delay = 600,
}: {
  content: ReactNode;
  children: ReactElement;
  delay?: number;
}) {
  return (
    <TooltipTrigger delay={delay}>
      {children}
      <AriaTooltip className="tooltip" offset={6}>
        {content}
      </AriaTooltip>
    </TooltipTrigger>
  );
}
