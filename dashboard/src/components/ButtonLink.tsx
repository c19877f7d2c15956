import { Link, type LinkProps } from 'react-router';
import { buttonClass, type ButtonProps } from './ui/Button';

export interface ButtonLinkProps extends Omit<LinkProps, 'className'> {
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  testId?: string;
}

/** A link to another screen that looks like the kit's button (it navigates, so it stays a link). */
export function ButtonLink({ variant, size, testId, ...rest }: ButtonLinkProps) {
  return <Link {...rest} className={buttonClass(variant, size)} data-testid={testId} />;
}
