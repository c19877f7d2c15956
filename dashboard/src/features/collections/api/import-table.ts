import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, type ApiErrorDetail } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/**
 * `upsert`: a row whose slug names a stored record updates it, the others are inserted;
 * `insert`: every row is a new record (a stored slug is then a problem at its row).
 */
export type ImportMode = 'upsert' | 'insert';

export interface ImportTableInput {
  tableId: number;
  /** File name (.csv or .json). */
  name: string;
  /** data: URL of the file. */
  content: string;
  mode: ImportMode;
}

/** What a row of the file does. */
export type ImportRowAction = 'insert' | 'update' | 'unchanged' | 'refused';

/** One cell of a previewed row: what the file wrote, the stored value and how the site shows it. */
export interface ImportPreviewCell {
  field: string;
  written: string;
  stored: unknown;
  display: string;
}

/** One of the file's first rows as it will be stored. */
export interface ImportPreviewRow {
  row: number;
  action: ImportRowAction;
  name: string;
  slug: string;
  cells: ImportPreviewCell[];
}

/** The answer of an import and of its dry run: true counts, how the file was read, first rows. */
export interface ImportSummary {
  dryRun: boolean;
  inserted: number;
  updated: number;
  unchanged: number;
  refused: number;
  /** The refused rows' problems. */
  problems: ApiErrorDetail[];
  format: 'csv' | 'json';
  /** `UTF-8`, `windows-1252`, `UTF-16LE`… */
  encoding: string;
  bom: boolean;
  /** A CSV file's separator: `,` `;` or `tab`. */
  separator?: string;
  columns: { field: string; name: string; type: string }[];
  preview: ImportPreviewRow[];
}

/**
 * Writes the records of a CSV (header name,slug,<field slugs or names>) or JSON file, all or none;
 * with `dryRun`, writes nothing and answers what it would do (the preview).
 */
export function importTable(
  { tableId, name, content, mode }: ImportTableInput,
  dryRun = false,
): Promise<ImportSummary> {
  return apiJson<ImportSummary>(`/api/tables/${tableId}/import`, {
    method: 'POST',
    body: { name, content, mode, dryRun },
  });
}

export function useImportTable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ImportTableInput) => importTable(input),
    onSuccess: (_, { tableId }) => client.invalidateQueries({ queryKey: queryKeys.tableData(tableId) }),
  });
}
