import { useState } from 'react';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useCollectionData } from '@/features/pages/api/get-collection-data';
import { useUpdatePage } from '@/features/pages/api/update-page';

/**
 * A collection page in the editor: the collection's data (the fields blocks can bind to), the
 * post the preview shows (the chosen one, else the collection's first), and binding the page to
 * a collection or unbinding it, saved at once: the render API reads the post from the page's
 * stored collection. The page query then carries the new `table_id`.
 */
export function useCollectionPage(pageId: number, tableId: number | null) {
  const collection = useCollectionData(tableId);
  const [chosenPostSlug, setPostSlug] = useState<string | undefined>(undefined);
  const postSlug = chosenPostSlug ?? collection.data?.posts[0]?.slug;
  const update = useUpdatePage();
  const bindCollection = (table: number | null) => {
    update.mutate(
      { id: pageId, table_id: table },
      {
        onSuccess: () => setPostSlug(undefined),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };
  return { collection, postSlug, setPostSlug, bindCollection, binding: update.isPending };
}
