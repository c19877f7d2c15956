import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import type { PageBlock, RenderResult } from '@/features/pages/types';

export interface RenderInput {
  projectId: number;
  pageId: number;
  /** Slug of the post a collection page is previewed with. */
  post?: string | undefined;
  blocks: PageBlock[];
}

/**
 * Renders blocks with the edge's renderer (so the preview is what visitors get): the canvas
 * head and each block's html, or its error. Called with one block for a field edit.
 */
export function renderBlocks({ projectId, pageId, post, blocks }: RenderInput): Promise<RenderResult> {
  const body: { page_id: number; blocks: PageBlock[]; post?: string } = { page_id: pageId, blocks };
  if (post) body.post = post;
  return apiJson<RenderResult>(`/api/project/${projectId}/render`, { method: 'POST', body });
}

export function useRenderBlocks() {
  return useMutation({ mutationFn: renderBlocks });
}
