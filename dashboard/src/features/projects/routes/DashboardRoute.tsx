import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { readLocal, storageKeys, writeLocal } from '@/lib/storage';
import { useProjects } from '@/lib/projects/get-projects';
import { ProjectItem } from '@/features/projects/components/ProjectCard';
import { EmptyProjects } from '@/features/projects/components/EmptyProjects';
import {
  arrangeProjects,
  defaultProjectOrder,
  isProjectOrder,
  isProjectView,
  listControlsThreshold,
  projectOrders,
  type ProjectOrder,
  type ProjectView,
} from '@/features/projects/lib/project-list';
import { ButtonLink } from '@/components/ButtonLink';
import { SearchInput, ToolbarSelect } from '@/components/Toolbar';

function useStoredChoice<T extends string>(
  key: string,
  guard: (value: string | null) => value is T,
  fallback: T,
) {
  const [value, setValue] = useState<T>(() => {
    const stored = readLocal(key);
    return guard(stored) ? stored : fallback;
  });
  const update = (next: T) => {
    setValue(next);
    writeLocal(key, next);
  };
  return [value, update] as const;
}

/** "/": the caller's projects. */
export function DashboardRoute() {
  const { t } = useTranslation();
  const projects = useProjects();
  const [order, setOrder] = useStoredChoice<ProjectOrder>(
    storageKeys.projectOrder,
    isProjectOrder,
    defaultProjectOrder,
  );
  const [view, setView] = useStoredChoice<ProjectView>(storageKeys.projectView, isProjectView, 'grid');
  const [search, setSearch] = useState('');

  if (projects.isPending) return <PageLoader />;
  if (projects.isError) return <Alert>{errorMessage(projects.error)}</Alert>;

  const all = projects.data;
  const showControls = all.length > listControlsThreshold;
  const visible = arrangeProjects(all, order, showControls ? search : '');
  const effectiveView: ProjectView = showControls ? view : 'grid';

  return (
    <section className="page">
      <div className="page-header">
        <h1>{t('projects.title')}</h1>
        <ButtonLink to={paths.projectNew.build()} variant="primary" testId="new-project-link">
          + {t('projects.new')}
        </ButtonLink>
      </div>

      {all.length > 0 && (
        <div className="toolbar">
          {showControls && (
            <SearchInput
              label={t('projects.search')}
              value={search}
              onChange={setSearch}
              testId="project-search"
            />
          )}
          <ToolbarSelect
            label={t('projects.orderBy')}
            value={order}
            options={projectOrders}
            optionLabel={(value) => t(`projects.orders.${value}`)}
            onChange={setOrder}
            testId="project-order"
          />
          {showControls && (
            <div className="segmented" role="group" aria-label={t('projects.view')}>
              <button
                type="button"
                aria-pressed={view === 'grid'}
                onClick={() => setView('grid')}
                data-testid="view-grid"
              >
                {t('projects.grid')}
              </button>
              <button
                type="button"
                aria-pressed={view === 'list'}
                onClick={() => setView('list')}
                data-testid="view-list"
              >
                {t('projects.list')}
              </button>
            </div>
          )}
        </div>
      )}

      {all.length === 0 ? (
        <EmptyProjects />
      ) : visible.length === 0 ? (
        <p className="muted">{t('projects.noMatch')}</p>
      ) : (
        <ul className={effectiveView === 'grid' ? 'project-grid' : 'project-list'} data-testid="project-list">
          {visible.map((project) => (
            <ProjectItem key={project.id} project={project} view={effectiveView} />
          ))}
        </ul>
      )}
    </section>
  );
}
