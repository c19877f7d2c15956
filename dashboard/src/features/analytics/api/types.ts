/**
 * The analytics report of one site (GET /api/projects/{id}/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD).
 *
 * Hand-written from the API contract while the server's OpenAPI schemas (`AnalyticsReport`,
 * `AnalyticsDay`, …) are not in this branch: replaced by the generated schema at merge
 * (`Schemas['AnalyticsReport']` and its parts, named in `src/lib/types.ts`). Everything else in
 * the feature imports the shapes from here, so that swap touches this file only.
 */

/** One day of the range (`date` is `YYYY-MM-DD`, UTC). */
export interface AnalyticsDay {
  date: string;
  views: number;
  visitors: number;
}

export interface AnalyticsPage {
  path: string;
  views: number;
  visitors: number;
}

/** Where visitors came from: a referrer's host, or "direct" for none. */
export interface AnalyticsReferrer {
  source: string;
  visitors: number;
}

export type AnalyticsDeviceKind = 'mobile' | 'tablet' | 'desktop';

export interface AnalyticsDevice {
  device: AnalyticsDeviceKind;
  visitors: number;
}

export interface AnalyticsLanguage {
  language: string;
  visitors: number;
}

/** A campaign by its `utm_source`, `utm_medium` and `utm_campaign`. */
export interface AnalyticsCampaign {
  source: string;
  medium: string;
  campaign: string;
  visitors: number;
}

/** Conversions counted on the site: forms sent, WhatsApp, phone and e-mail links followed. */
export interface AnalyticsConversions {
  forms: number;
  whatsapp: number;
  phone: number;
  email: number;
}

/** A path visitors asked for that the site does not have. */
export interface AnalyticsNotFound {
  path: string;
  views: number;
}

/** A deploy within the range (`at` is an RFC 3339 instant). */
export interface AnalyticsDeploy {
  id: number;
  at: string;
}

export interface AnalyticsReport {
  views: number;
  visitors: number;
  /** Views by crawlers and bots, kept apart from `views`. */
  bots: number;
  /** Visitors in the last 5 minutes. */
  now: number;
  /** False when the owner turned analytics off for the site (`meta.analytics = false`). */
  enabled: boolean;
  days: AnalyticsDay[];
  pages: AnalyticsPage[];
  referrers: AnalyticsReferrer[];
  devices: AnalyticsDevice[];
  languages: AnalyticsLanguage[];
  campaigns: AnalyticsCampaign[];
  conversions: AnalyticsConversions;
  not_found: AnalyticsNotFound[];
  deploys: AnalyticsDeploy[];
}
