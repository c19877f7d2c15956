import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ListTableProps {
  /** No rows: the `empty` line shows instead of the table. */
  isEmpty: boolean;
  empty: { text: ReactNode; testId: string; className: string };
  /** The wrapper's classes (`table-card`, with `card` where it stands alone). */
  className: string;
  testId: string;
  /** The column headings, in order. */
  headers: ReactNode[];
  /** A class for each heading's `<th>`, by position (`hide-on-phone` with its column's cells). */
  headerClassNames?: (string | undefined)[];
  /** A last, unnamed column of row actions (named "Actions" for screen readers). */
  actions?: boolean;
  /** The rows (`<tr>`s). */
  children: ReactNode;
}

/**
 * A plain `.data-table` of a short list (no sorting or selection; those are `DataTable`'s), or,
 * with no rows, the line that says so.
 */
export function ListTable({
  isEmpty,
  empty,
  className,
  testId,
  headers,
  headerClassNames,
  actions,
  children,
}: ListTableProps) {
  const { t } = useTranslation();
  if (isEmpty) {
    return (
      <p className={empty.className} data-testid={empty.testId}>
        {empty.text}
      </p>
    );
  }
  return (
    <div className={className}>
      <table className="data-table" data-testid={testId}>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={index} className={headerClassNames?.[index]}>
                {header}
              </th>
            ))}
            {actions && (
              <th className="actions-cell">
                <span className="sr-only">{t('common.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
