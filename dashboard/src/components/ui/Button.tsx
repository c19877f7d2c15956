import type { ReactNode } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { buttonClass, type ButtonSize, type ButtonVariant } from './button-class';

export { buttonClass } from './button-class';

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  children: ReactNode;
  testId?: string;
}

/**
 * The kit's button: React Aria's `Button` (press events that behave the same for mouse, touch,
 * keyboard and screen readers; `isDisabled`, `isPending`), styled by the `.button` classes.
 */
export function Button({
  variant = 'default',
  size = 'default',
  className,
  children,
  testId,
  ...rest
}: ButtonProps) {
  const classes = [buttonClass(variant, size)];
  if (className) classes.push(className);
  return (
    <AriaButton {...rest} className={classes.join(' ')} data-testid={testId}>
      {children}
    </AriaButton>
  );
}
