//! The owner's report over a range of days (`GET /api/projects/{id}/analytics`): the API's
//! shape itself, so the control plane answers it as it is read.
//!
//! A visitor is a hash under the day's salt, and each day has its own salt, so the distinct
//! visitors of a range are the distinct hashes over its days (each day's exact set, plus the
//! sketch estimate of a day past the exact threshold). Per page, source, device, language and
//! campaign, visitors are counted among the exactly-held ones (`docs/analytics.md`).

use chrono::{DateTime, Days, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::super::{Result, Store, dispatch, map_err, trusted};
use crate::{analytics::hll::Sketch, ids::ProjectId};

/// How many rows the per-page, per-source and the other lists show, most first.
const TOP: i64 = 50;

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsReport {
    /// Page views by people over the range (HTML 200 and 304 answers).
    pub views: i64,
    /// Distinct visitors over the range.
    pub visitors: i64,
    /// Page views by bots.
    pub bots: i64,
    /// Distinct visitors in the last 5 minutes, as far as the edges have flushed.
    pub now: i64,
    /// Whether the owner counts visitors (`meta.analytics`).
    pub enabled: bool,
    pub days: Vec<AnalyticsDay>,
    pub pages: Vec<AnalyticsPage>,
    pub referrers: Vec<AnalyticsReferrer>,
    pub devices: Vec<AnalyticsDevice>,
    pub languages: Vec<AnalyticsLanguage>,
    pub campaigns: Vec<AnalyticsCampaign>,
    pub conversions: AnalyticsConversions,
    pub not_found: Vec<AnalyticsNotFound>,
    pub deploys: Vec<AnalyticsDeploy>,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsDay {
    /// YYYY-MM-DD (UTC).
    pub date: String,
    pub views: i64,
    pub visitors: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsPage {
    pub path: String,
    pub views: i64,
    pub visitors: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsReferrer {
    /// The referrer's domain, or `direct` (no referrer, or the site itself).
    pub source: String,
    pub visitors: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsDevice {
    /// `mobile`, `tablet` or `desktop`.
    pub device: String,
    pub visitors: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsLanguage {
    pub language: String,
    pub visitors: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsCampaign {
    pub source: String,
    pub medium: String,
    pub campaign: String,
    pub visitors: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq, Default)]
pub struct AnalyticsConversions {
    /// Form submissions.
    pub forms: i64,
    /// Taps on WhatsApp links.
    pub whatsapp: i64,
    /// Taps on `tel:` links.
    pub phone: i64,
    /// Taps on `mailto:` links.
    pub email: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsNotFound {
    pub path: String,
    pub views: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct AnalyticsDeploy {
    pub id: i64,
    pub at: DateTime<Utc>,
}

/// A day's counters: day, views, bots, WhatsApp, phone and e-mail taps, overflow, sketch.
type DayRow = (String, i64, i64, i64, i64, i64, bool, String);

/// A `(name, count)` row of a grouped query.
type ReportRow = (String, i64);

impl Store {
    /// The report of `project` from `from` to `to` (both included, UTC days); `now`: the
    /// current time, for the last five minutes' visitors. `enabled` is the caller's.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn analytics_report(
        &self,
        project: ProjectId,
        from: NaiveDate,
        to: NaiveDate,
        now: DateTime<Utc>,
        enabled: bool,
    ) -> Result<AnalyticsReport> {
        let (f, t) = (from.to_string(), to.to_string());
        let grouped = |sql: String| {
            let (f, t) = (f.clone(), t.clone());
            async move {
                dispatch!(self, p => sqlx::query_as::<_, ReportRow>(trusted(&sql))
                    .bind(project).bind(&f).bind(&t).bind(TOP).fetch_all(p).await.map_err(map_err))
            }
        };
        let range = "project_id = $1 AND day >= $2 AND day <= $3";
        let rows: Vec<DayRow> = dispatch!(self, p =>
            sqlx::query_as(trusted(&format!(
                "SELECT day, views, bots, whatsapp, phone, email, overflow, sketch \
                 FROM analytics_days WHERE {range} ORDER BY day")))
            .bind(project).bind(&f).bind(&t).fetch_all(p).await.map_err(map_err))?;
        let exact_days = grouped(format!(
            "SELECT day, COUNT(*) FROM analytics_visitors WHERE {range} GROUP BY day LIMIT 1000 + $4"
        ))
        .await?;
        let exact_total: i64 = dispatch!(self, p => sqlx::query_scalar(trusted(&format!(
            "SELECT COUNT(DISTINCT visitor) FROM analytics_visitors WHERE {range}")))
            .bind(project).bind(&f).bind(&t).fetch_one(p).await.map_err(map_err))?;
        let mut report = AnalyticsReport {
            views: 0,
            visitors: exact_total,
            bots: 0,
            now: 0,
            enabled,
            days: Vec::new(),
            pages: Vec::new(),
            referrers: Vec::new(),
            devices: Vec::new(),
            languages: Vec::new(),
            campaigns: Vec::new(),
            conversions: AnalyticsConversions::default(),
            not_found: Vec::new(),
            deploys: Vec::new(),
        };
        let mut day = from;
        while day <= to {
            let date = day.to_string();
            let row = rows.iter().find(|r| r.0 == date);
            let exact = exact_days.iter().find(|r| r.0 == date).map_or(0, |r| r.1);
            let (views, visitors) = match row {
                Some(r) if r.6 => {
                    let estimate = i64::try_from(Sketch::from_text(&r.7).estimate()).unwrap_or(0);
                    // The day's exact rows are in the sketch: the total counts it instead.
                    report.visitors += estimate - exact;
                    (r.1, estimate)
                }
                Some(r) => (r.1, exact),
                None => (0, 0),
            };
            if let Some(r) = row {
                report.views += r.1;
                report.bots += r.2;
                report.conversions.whatsapp += r.3;
                report.conversions.phone += r.4;
                report.conversions.email += r.5;
            }
            report.days.push(AnalyticsDay {
                date,
                views,
                visitors,
            });
            day = day + Days::new(1);
        }
        let visitors_by = |col: &str, filter: &str| {
            format!(
                "SELECT {col}, COUNT(DISTINCT visitor) FROM analytics_visitors \
                 WHERE {range}{filter} GROUP BY {col} ORDER BY 2 DESC, 1 LIMIT $4"
            )
        };
        report.referrers = grouped(visitors_by("source", ""))
            .await?
            .into_iter()
            .map(|(source, visitors)| AnalyticsReferrer { source, visitors })
            .collect();
        report.devices = grouped(visitors_by("device", ""))
            .await?
            .into_iter()
            .map(|(device, visitors)| AnalyticsDevice { device, visitors })
            .collect();
        report.languages = grouped(visitors_by("language", " AND language <> ''"))
            .await?
            .into_iter()
            .map(|(language, visitors)| AnalyticsLanguage { language, visitors })
            .collect();
        let campaigns: Vec<(String, String, String, i64)> = dispatch!(self, p =>
            sqlx::query_as(trusted(&format!(
                "SELECT utm_source, utm_medium, utm_campaign, COUNT(DISTINCT visitor) \
                 FROM analytics_visitors WHERE {range} \
                 AND (utm_source <> '' OR utm_medium <> '' OR utm_campaign <> '') \
                 GROUP BY utm_source, utm_medium, utm_campaign ORDER BY 4 DESC, 1, 2, 3 LIMIT $4")))
            .bind(project).bind(&f).bind(&t).bind(TOP).fetch_all(p).await.map_err(map_err))?;
        report.campaigns = campaigns
            .into_iter()
            .map(|(source, medium, campaign, visitors)| AnalyticsCampaign {
                source,
                medium,
                campaign,
                visitors,
            })
            .collect();
        let pages = |found: bool| {
            format!(
                "SELECT path, CAST(SUM(views) AS BIGINT) FROM analytics_pages WHERE {range} AND found = {} \
                 GROUP BY path ORDER BY 2 DESC, 1 LIMIT $4",
                if found { "TRUE" } else { "FALSE" }
            )
        };
        let page_visitors = grouped(format!(
            "SELECT path, COUNT(DISTINCT visitor) FROM analytics_page_visitors WHERE {range} \
             GROUP BY path ORDER BY 2 DESC LIMIT 10 * $4"
        ))
        .await?;
        report.pages = grouped(pages(true))
            .await?
            .into_iter()
            .map(|(path, views)| {
                let visitors = page_visitors
                    .iter()
                    .find(|r| r.0 == path)
                    .map_or(0, |r| r.1);
                AnalyticsPage {
                    path,
                    views,
                    visitors,
                }
            })
            .collect();
        report.not_found = grouped(pages(false))
            .await?
            .into_iter()
            .map(|(path, views)| AnalyticsNotFound { path, views })
            .collect();
        let start = from.and_hms_opt(0, 0, 0).expect("midnight").and_utc();
        let end = (to + Days::new(1))
            .and_hms_opt(0, 0, 0)
            .expect("midnight")
            .and_utc();
        report.conversions.forms = dispatch!(self, p => sqlx::query_scalar(
            "SELECT COUNT(*) FROM form_history WHERE project_id = $1 \
             AND created_at >= $2 AND created_at < $3")
            .bind(project).bind(start).bind(end).fetch_one(p).await.map_err(map_err))?;
        let deploys: Vec<(i64, DateTime<Utc>)> = dispatch!(self, p => sqlx::query_as(
            "SELECT id, finished_at FROM deploys WHERE project_id = $1 AND status = 'ready' \
             AND finished_at >= $2 AND finished_at < $3 ORDER BY finished_at, id LIMIT 1000")
            .bind(project).bind(start).bind(end).fetch_all(p).await.map_err(map_err))?;
        report.deploys = deploys
            .into_iter()
            .map(|(id, at)| AnalyticsDeploy { id, at })
            .collect();
        let minute = now.timestamp().div_euclid(60);
        let since = (now.date_naive() - Days::new(1)).to_string();
        report.now = dispatch!(self, p => sqlx::query_scalar(
            "SELECT COUNT(DISTINCT visitor) FROM analytics_visitors WHERE project_id = $1 \
             AND day >= $2 AND seen_minute > $3")
            .bind(project).bind(&since).bind(minute - 5).fetch_one(p).await.map_err(map_err))?;
        Ok(report)
    }
}
