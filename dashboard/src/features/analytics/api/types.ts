/**
 * The analytics report's shapes, from the generated schema (`src/lib/types.ts`), under the
 * names the feature imports.
 */
export type {
  AnalyticsCampaign,
  AnalyticsConversions,
  AnalyticsDay,
  AnalyticsDeploy,
  AnalyticsDevice,
  AnalyticsDeviceKind,
  AnalyticsLanguage,
  AnalyticsNotFound,
  AnalyticsPage,
  AnalyticsReferrer,
  AnalyticsReport,
} from '@/lib/types';
