import { AnalyticsRoute } from '@/features/analytics/routes/AnalyticsRoute';
import type { AnalyticsSlots } from '@/features/analytics/components/AnalyticsScreen';
import { AnalyticsToggle } from '@/features/projects/components/AnalyticsToggle';
import { RedirectForm } from '@/features/redirects/components/RedirectForm';

const slots: AnalyticsSlots = {
  setting: (project, enabled) => <AnalyticsToggle project={project} enabled={enabled} />,
  redirectForm: (projectId, path, onClose) => (
    <RedirectForm projectId={projectId} defaultFrom={path} onDone={onClose} />
  ),
};

/**
 * "/project/{id}/analytics" as the app shows it: the analytics feature's screen with the
 * projects feature's switch (it saves `meta.analytics`, as the HSTS switch saves its key) and,
 * on each 404, the redirects feature's own form with the missing path as the origin.
 */
export function AnalyticsPage() {
  return <AnalyticsRoute {...slots} />;
}
