/** Query keys shared across features, so a mutation in one invalidates queries of another. */
export const queryKeys = {
  config: ['config'] as const,
  user: ['user'] as const,
  projects: ['projects'] as const,
  project: (id: number) => ['projects', id] as const,
  templates: ['templates'] as const,
  page: (projectId: number, pageId: number) => ['projects', projectId, 'pages', pageId] as const,
};
