import { useTranslation } from 'react-i18next';
import type { CollectionPost } from '@/features/pages/api/get-collection-data';

interface Props {
  posts: CollectionPost[];
  /** The post the preview shows; none while the collection has none. */
  value: string | undefined;
  onChange: (slug: string | undefined) => void;
}

/** A collection page's post chooser, above the editor's tabs: the post the canvas previews. */
export function PostSelect({ posts, value, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <div className="field post-select">
      <label htmlFor="editor-post">{t('editor.post')}</label>
      <select
        id="editor-post"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || undefined)}
        data-testid="post-select"
      >
        {posts.length === 0 && <option value="">—</option>}
        {posts.map((post) => (
          <option key={post.id} value={post.slug}>
            {post.name}
          </option>
        ))}
      </select>
    </div>
  );
}
