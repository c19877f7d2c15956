import { queryOptions, useQuery } from '@tanstack/react-query';
import { readAsDataUrl } from '@/lib/files';
import { importTable, type ImportMode } from './import-table';

/**
 * The dry run of an import: what it would write (counts, first rows as stored, the detected
 * encoding and separator), nothing written. Keyed by the file object itself, so choosing another
 * file or mode asks again; never cached past the dialog.
 */
export function previewImportOptions(tableId: number, file: File, mode: ImportMode) {
  return queryOptions({
    queryKey: ['tables', tableId, 'import-preview', file.name, file.size, file.lastModified, mode] as const,
    queryFn: async () =>
      importTable({ tableId, name: file.name, content: await readAsDataUrl(file), mode }, true),
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
  });
}

export function usePreviewImport(tableId: number, file: File, mode: ImportMode) {
  return useQuery(previewImportOptions(tableId, file, mode));
}
