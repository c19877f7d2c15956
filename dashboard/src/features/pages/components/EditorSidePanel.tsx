import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Tabs } from '@/components/ui/Tabs';
import type { CollectionPost } from '@/features/pages/api/get-collection-data';
import type { EditorTab } from '@/features/pages/lib/editor-commands';
import { BlockTab } from './BlockTab';
import { PageTab } from './PageTab';
import { PostSelect } from './PostSelect';

interface Props {
  tab: EditorTab;
  onTab: (tab: EditorTab) => void;
  /** On a collection page: its posts (the one the canvas shows is chosen here); null elsewhere. */
  posts: CollectionPost[] | null;
  post: string | undefined;
  onPost: (slug: string | undefined) => void;
  page: ComponentProps<typeof PageTab>;
  block: ComponentProps<typeof BlockTab>;
}

/**
 * The editor's right-hand panel: a collection page's post selector, then the Page and Block tabs
 * (`page-tab` and its `page-panel`, and the same for a block).
 */
export function EditorSidePanel({ tab, onTab, posts, post, onPost, page, block }: Props) {
  const { t } = useTranslation();
  const panelTab = (id: EditorTab, content: ReactNode) => ({
    id,
    label: t(id === 'page' ? 'editor.tabs.page' : 'editor.tabs.block'),
    testId: `${id}-tab`,
    panelTestId: `${id}-panel`,
    content,
  });
  return (
    <aside className="editor-panel">
      {posts !== null && <PostSelect posts={posts} value={post} onChange={onPost} />}
      <Tabs
        aria-label={t('kit.editorTabs')}
        className="editor-tabs"
        selectedKey={tab}
        onSelectionChange={(key) => onTab(key as EditorTab)}
        items={[panelTab('page', <PageTab {...page} />), panelTab('block', <BlockTab {...block} />)]}
      />
    </aside>
  );
}
