import { Link, type LinkProps } from 'react-router';
import type { ReactNode } from 'react';
import { buttonClass, type ButtonSize, type ButtonVariant } from './ui/button-class';

export interface ButtonLinkProps extends Omit<LinkProps, 'className'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  testId?: string;
}

/** A link to another screen that looks like the kit's button (it navigates, so it stays a link). */
export function ButtonLink({ variant, size, testId, ...rest }: ButtonLinkProps) {
  return <Link {...rest} className={buttonClass(variant, size)} data-testid={testId} />;
}

/** One of `ButtonLinks`: where it goes, its text, its test id (its key) and its variant. */
export interface ButtonLinkItem {
  to: string;
  label: ReactNode;
  testId: string;
  variant?: ButtonVariant;
}

/**
 * Links to other screens side by side, each a `ButtonLink` of the same size: a header's (the
 * project overview's) or a row's (a collection's).
 */
export function ButtonLinks({ links, size }: { links: readonly ButtonLinkItem[]; size?: ButtonSize }) {
  return links.map(({ label, testId, ...link }) => (
    <ButtonLink key={testId} {...link} size={size} testId={testId}>
      {label}
    </ButtonLink>
  ));
}

interface ExternalButtonLinkProps {
  href: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  testId?: string;
  children: ReactNode;
}

/**
 * A link out of the dashboard (the site's preview, the client's admin) that looks like the kit's
 * button: it opens in a new tab, without telling that page where it came from, and says so with ↗.
 */
export function ExternalButtonLink({ href, variant, size, testId, children }: ExternalButtonLinkProps) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className={buttonClass(variant, size)}
      data-testid={testId}
    >
      {children} ↗
    </a>
  );
}
