//! Visitor analytics' aggregates (`docs/analytics.md`, `migrations/0022_analytics.sql`): what
//! each edge adds per site and day at every flush, the owner's report ([`report`]), and the
//! pruning of rows older than two years.
//!
//! Every write is additive: counters are `+ excluded.…` upserts, visitors and the pages they
//! saw are set members (`ON CONFLICT DO NOTHING`), and a sketch is merged by each register's
//! maximum, so the order and the number of edges that flush make no difference to the totals.

mod report;

use chrono::NaiveDate;

use super::{BeginWrite, Result, Store, dispatch, map_err, trusted};
use crate::{analytics::hll::Sketch, ids::ProjectId};

pub use report::{
    AnalyticsCampaign, AnalyticsConversions, AnalyticsDay, AnalyticsDeploy, AnalyticsDevice,
    AnalyticsLanguage, AnalyticsNotFound, AnalyticsPage, AnalyticsReferrer, AnalyticsReport,
};

/// The most pages kept per site and day; later new paths are counted as [`OTHER_PATH`].
pub const MAX_PATHS: i64 = 500;
/// Where pages past [`MAX_PATHS`] are counted.
pub const OTHER_PATH: &str = "(other)";
/// How long daily aggregates are kept.
pub const KEEP_DAYS: i64 = 2 * 366;

/// One visitor of a site-day, as an edge saw them during one flush interval. Where they came
/// from is the first source other than `direct` any edge saw that day (and likewise each
/// `utm_*` value), so the order in which edges flush changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VisitorSeen {
    pub visitor: i64,
    /// Minutes since the Unix epoch when last seen (for the "now" figure).
    pub minute: i64,
    pub source: String,
    pub utm_source: String,
    pub utm_medium: String,
    pub utm_campaign: String,
    pub device: String,
    pub language: String,
}

/// What one edge counted for a site on a day since its last flush.
#[derive(Debug, Clone)]
pub struct SiteDay {
    pub project_id: ProjectId,
    pub day: NaiveDate,
    pub views: i64,
    pub bots: i64,
    pub whatsapp: i64,
    pub phone: i64,
    pub email: i64,
    pub visitors: Vec<VisitorSeen>,
    /// `(path, found, views)`: `found` false for the site's 404.
    pub pages: Vec<(String, bool, i64)>,
    /// `(path, visitor)`.
    pub page_visitors: Vec<(String, i64)>,
}

impl SiteDay {
    /// Nothing counted yet.
    pub fn new(project_id: ProjectId, day: NaiveDate) -> SiteDay {
        SiteDay {
            project_id,
            day,
            views: 0,
            bots: 0,
            whatsapp: 0,
            phone: 0,
            email: 0,
            visitors: Vec::new(),
            pages: Vec::new(),
            page_visitors: Vec::new(),
        }
    }
}

const COUNTERS: &str = "INSERT INTO analytics_days (project_id, day, views, bots, whatsapp, phone, email) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (project_id, day) DO UPDATE SET \
     views = analytics_days.views + excluded.views, bots = analytics_days.bots + excluded.bots, \
     whatsapp = analytics_days.whatsapp + excluded.whatsapp, \
     phone = analytics_days.phone + excluded.phone, email = analytics_days.email + excluded.email";

const VISITOR: &str = "INSERT INTO analytics_visitors (project_id, day, visitor, seen_minute, source, \
     utm_source, utm_medium, utm_campaign, device, language) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
     ON CONFLICT (project_id, day, visitor) DO UPDATE SET seen_minute = CASE \
     WHEN excluded.seen_minute > analytics_visitors.seen_minute THEN excluded.seen_minute \
     ELSE analytics_visitors.seen_minute END, \
     source = CASE WHEN analytics_visitors.source = 'direct' THEN excluded.source \
     ELSE analytics_visitors.source END, \
     utm_source = CASE WHEN analytics_visitors.utm_source = '' THEN excluded.utm_source \
     ELSE analytics_visitors.utm_source END, \
     utm_medium = CASE WHEN analytics_visitors.utm_medium = '' THEN excluded.utm_medium \
     ELSE analytics_visitors.utm_medium END, \
     utm_campaign = CASE WHEN analytics_visitors.utm_campaign = '' THEN excluded.utm_campaign \
     ELSE analytics_visitors.utm_campaign END, \
     language = CASE WHEN analytics_visitors.language = '' THEN excluded.language \
     ELSE analytics_visitors.language END";

const PAGE_VISITOR: &str = "INSERT INTO analytics_page_visitors (project_id, day, path, visitor) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (project_id, day, path, visitor) DO NOTHING";

const PAGE: &str = "INSERT INTO analytics_pages (project_id, day, path, found, views) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (project_id, day, path, found) DO UPDATE SET \
     views = analytics_pages.views + excluded.views";

const PAGE_ADD: &str = "UPDATE analytics_pages SET views = views + $5 \
     WHERE project_id = $1 AND day = $2 AND path = $3 AND found = $4";

/// The statements of one site-day's flush, in its transaction (a macro for the reason the
/// store's module docs give: `$tx` is a SQLite or a PostgreSQL transaction).
macro_rules! flush_site_day {
    ($tx:ident, $d:ident, $exact_cap:ident) => {{
        let day = $d.day.to_string();
        let pid = $d.project_id;
        sqlx::query(COUNTERS)
            .bind(pid).bind(&day).bind($d.views).bind($d.bots)
            .bind($d.whatsapp).bind($d.phone).bind($d.email)
            .execute(&mut *$tx).await.map_err(map_err)?;
        let (overflow, sketch): (bool, String) = sqlx::query_as(
            "SELECT overflow, sketch FROM analytics_days WHERE project_id = $1 AND day = $2")
            .bind(pid).bind(&day).fetch_one(&mut *$tx).await.map_err(map_err)?;
        let held: i64 = if overflow { 0 } else {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM analytics_visitors WHERE project_id = $1 AND day = $2")
                .bind(pid).bind(&day).fetch_one(&mut *$tx).await.map_err(map_err)?
        };
        if !overflow && held + ($d.visitors.len() as i64) <= $exact_cap {
            for v in &$d.visitors {
                sqlx::query(VISITOR)
                    .bind(pid).bind(&day).bind(v.visitor).bind(v.minute).bind(&v.source)
                    .bind(&v.utm_source).bind(&v.utm_medium).bind(&v.utm_campaign)
                    .bind(&v.device).bind(&v.language)
                    .execute(&mut *$tx).await.map_err(map_err)?;
            }
            for (path, visitor) in &$d.page_visitors {
                sqlx::query(PAGE_VISITOR).bind(pid).bind(&day).bind(path).bind(visitor)
                    .execute(&mut *$tx).await.map_err(map_err)?;
            }
        } else {
            // Past the exact threshold: the day's visitors go on in a sketch, seeded with the
            // ones held exactly the first time.
            let mut sk = if overflow { Sketch::from_text(&sketch) } else {
                let mut sk = Sketch::default();
                let held: Vec<i64> = sqlx::query_scalar(
                    "SELECT visitor FROM analytics_visitors WHERE project_id = $1 AND day = $2")
                    .bind(pid).bind(&day).fetch_all(&mut *$tx).await.map_err(map_err)?;
                for h in held {
                    sk.add(h);
                }
                sk
            };
            $d.visitors.iter().for_each(|v| sk.add(v.visitor));
            sqlx::query(
                "UPDATE analytics_days SET overflow = $3, sketch = $4 WHERE project_id = $1 AND day = $2")
                .bind(pid).bind(&day).bind(true).bind(sk.to_text())
                .execute(&mut *$tx).await.map_err(map_err)?;
        }
        let paths: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM analytics_pages WHERE project_id = $1 AND day = $2")
            .bind(pid).bind(&day).fetch_one(&mut *$tx).await.map_err(map_err)?;
        for (path, found, views) in &$d.pages {
            if paths < MAX_PATHS {
                sqlx::query(PAGE).bind(pid).bind(&day).bind(path).bind(*found).bind(*views)
                    .execute(&mut *$tx).await.map_err(map_err)?;
                continue;
            }
            let added = sqlx::query(PAGE_ADD).bind(pid).bind(&day).bind(path).bind(*found)
                .bind(*views).execute(&mut *$tx).await.map_err(map_err)?;
            if added.rows_affected() == 0 {
                sqlx::query(PAGE).bind(pid).bind(&day).bind(OTHER_PATH).bind(*found)
                    .bind(*views).execute(&mut *$tx).await.map_err(map_err)?;
            }
        }
    }};
}

impl Store {
    /// Adds one site-day's counts (one transaction). `exact_cap`: visitors kept exactly per
    /// site and day (`ANALYTICS_EXACT_VISITORS`); a flush that would pass it moves the day to
    /// its sketch.
    #[tracing::instrument(level = "debug", skip_all, err(level = "debug"))]
    pub async fn add_analytics(&self, d: &SiteDay, exact_cap: u64) -> Result<()> {
        let exact_cap = i64::try_from(exact_cap).unwrap_or(i64::MAX);
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            flush_site_day!(tx, d, exact_cap);
            tx.commit().await.map_err(map_err)
        })
    }

    /// Deletes every aggregate of a day before `before`; returns the rows deleted.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn prune_analytics(&self, before: NaiveDate) -> Result<u64> {
        let day = before.to_string();
        let mut n = 0;
        for table in [
            "analytics_days",
            "analytics_visitors",
            "analytics_pages",
            "analytics_page_visitors",
        ] {
            let sql = format!("DELETE FROM {table} WHERE day < $1");
            n += dispatch!(self, p => sqlx::query(trusted(&sql)).bind(&day).execute(p).await
                .map(|r| r.rows_affected()).map_err(map_err))?;
        }
        Ok(n)
    }

    /// The analytics key kept in the database (made by the first server that asks), for a
    /// fleet without `ANALYTICS_SECRET`.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn analytics_key(&self) -> Result<String> {
        let fresh = hex::encode(rand::random::<[u8; 32]>());
        dispatch!(self, p => {
            sqlx::query("INSERT INTO analytics_key (id, secret) VALUES (1, $1) \
                ON CONFLICT (id) DO NOTHING")
                .bind(&fresh).execute(p).await.map_err(map_err)?;
            sqlx::query_scalar::<_, String>("SELECT secret FROM analytics_key WHERE id = 1")
                .fetch_one(p).await.map_err(map_err)
        })
    }
}

#[cfg(test)]
mod tests;
