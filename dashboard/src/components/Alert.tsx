import type { ReactNode } from 'react';

interface AlertProps {
  kind?: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
  testId?: string;
}

export function Alert({ kind = 'error', children, testId }: AlertProps) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}
