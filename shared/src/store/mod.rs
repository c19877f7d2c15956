//! The store: every SQL statement of the product lives under this module, and nothing
//! outside it writes SQL.
//!
//! One API serves both databases. [`Store`] holds either a SQLite or a PostgreSQL pool and
//! each method runs the same SQL text on whichever it holds (`$1` placeholders work on both;
//! sqlx maps `$N` to SQLite's numbered parameters). Columns use types both sides decode the
//! same way: `i64`, `bool`, `String`, `DateTime<Utc>` and `Json<…>` (TEXT on SQLite, JSONB on
//! PostgreSQL). The sqlx `Any` driver was not used because it cannot decode timestamps or
//! JSON, which would have forced strings everywhere.
//!
//! Statements that must run inside another statement's transaction (the change feed, the post
//! count, slug holds, publication periods) are macros (`push_change!`, `add_post_count!`, …)
//! rather than functions. The transaction is a `sqlx::Transaction` of SQLite in one arm of
//! [`dispatch!`] and of PostgreSQL in the other; a function taking either would have to be
//! generic over `sqlx::Database`, with sqlx's executor bound and an encode-and-type bound for
//! every value it binds spelled out. A macro expands in each arm, where the transaction's type
//! is concrete, and is compiled there like the arm's other code. Each expands to an
//! expression that awaits the statement, so it is used inside the arm's `async` code and ends
//! in `?`; it names `map_err` and `now`, which the caller has in scope.

mod analytics;
mod billing;
mod blocks;
mod bulk;
mod collections;
mod conversions;
mod domains;
mod edges;
mod forms;
mod migrations;
mod models;
mod outbox;
mod pages;
mod photos;
mod projects;
mod publishing;
mod redirects;
mod sections;
mod snapshots;
pub(crate) mod storage;
mod submissions;
mod templates;
mod tls;
mod users;

use std::{str::FromStr, time::Duration};

use chrono::{DateTime, SubsecRound, Utc};
use sqlx::{
    PgPool, SqlitePool,
    postgres::PgPoolOptions,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

pub use analytics::{
    AnalyticsCampaign, AnalyticsConversions, AnalyticsDay, AnalyticsDeploy, AnalyticsDevice,
    AnalyticsLanguage, AnalyticsNotFound, AnalyticsPage, AnalyticsReferrer, AnalyticsReport,
    KEEP_DAYS, MAX_PATHS, OTHER_PATH, SiteDay, VisitorSeen,
};
pub use billing::{Charge, Transaction};
pub use blocks::{
    BlockCategory, BlockContent, BlockExport, BlockInput, BusinessBlock, CategoryExport,
    CategoryInput, LibraryBlock, LibraryError, MAX_BUSINESS_BLOCKS, MyBlock,
};
pub use bulk::{LiveIds, LiveSite};
pub use collections::{
    Collection, Field, FieldInput, FilterOp, LIST_QUERY_TIMEOUT, NewPost, OrderKey, Post,
    PostFilter, PostUpdate, PostsStep,
};
pub use conversions::ConversionEvent;
pub use domains::{DOMAIN_UNIT_TAKEN, DomainClaim, SLUG_HELD};
pub use edges::{EdgeError, EdgeNode, EdgePoint, STALE_AFTER_SECONDS};
pub use forms::{FormRecipient, HistoryUsage};
pub use models::*;
pub use outbox::OutboxMail;
pub use photos::PhotoProgress;
pub use projects::NewProject;
pub use publishing::{CHANGES_CHANNEL, Change, Deploy, DeployStatus, INTERRUPTED_BUILD, SiteRow};
pub use redirects::{REDIRECTS_FULL, RedirectOrder, RedirectQuery, RedirectRule};
pub use sqlx::types::Json;
pub use storage::{RECORDS_FULL, Reservation, StorageQuota, StorageUsage, UploadOwner};
pub use submissions::{
    NewSubmission, Notification, StoredSubmission, Submission, SubmissionFilter,
};
pub use templates::TemplateInfo;
pub use tls::{
    Cap, CertState, CertificateStatus, OrderCaps, OrderCounts, RenewalDue, StoredCert, backoff,
};

/// Applies the same body to whichever pool the store holds. The body is compiled once per
/// database, so it must only use what both drivers support.
macro_rules! dispatch {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store {
            $crate::store::Store::Sqlite($pool) => $body,
            $crate::store::Store::Postgres($pool) => $body,
        }
    };
}
pub(crate) use dispatch;

/// Starts a transaction that will write. On SQLite it is `BEGIN IMMEDIATE`, which takes the
/// write lock up front: a deferred transaction that reads and then writes cannot wait for
/// another writer (SQLite answers `SQLITE_BUSY` at once rather than waiting `busy_timeout`),
/// so two concurrent requests would fail one of them with a 503. PostgreSQL begins as ever.
pub(crate) trait BeginWrite {
    type Db: sqlx::Database;
    fn begin_write(
        &self,
    ) -> impl Future<Output = sqlx::Result<sqlx::Transaction<'static, Self::Db>>> + Send;
}

impl BeginWrite for SqlitePool {
    type Db = sqlx::Sqlite;
    fn begin_write(
        &self,
    ) -> impl Future<Output = sqlx::Result<sqlx::Transaction<'static, sqlx::Sqlite>>> + Send {
        self.begin_with("BEGIN IMMEDIATE")
    }
}

impl BeginWrite for PgPool {
    type Db = sqlx::Postgres;
    fn begin_write(
        &self,
    ) -> impl Future<Output = sqlx::Result<sqlx::Transaction<'static, sqlx::Postgres>>> + Send {
        self.begin()
    }
}

/// The database, SQLite (embedded default) or PostgreSQL (many nodes).
#[derive(Clone, Debug)]
pub enum Store {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Why a store call failed. Constraint violations are named by their constraint so the API
/// can map them to the spec's messages.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    #[error("unique constraint {0} violated")]
    Conflict(&'static str),
    #[error("invalid stored data: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// What kind of failure a [`StoreError`] is, for callers that must tell a database outage
/// from a query the database refused: the edge's breaker and its form spool act on outages
/// only, so nothing a visitor sends can make the edge treat the database as down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The database cannot be reached or cannot take work: connection, pool, TLS and I/O
    /// errors, a server shutting down or out of connections or disk, a lock wait that ran out.
    Outage,
    /// This one statement ran past its own time limit (PostgreSQL's `statement_timeout`, or the
    /// deadline a SQLite statement is interrupted at): a slow query, not a dead database.
    SlowQuery,
    /// The database refused the values the statement carried (PostgreSQL class 22 data
    /// exceptions such as a NUL byte or an impossible date, class 23 constraint violations;
    /// SQLite constraint, type and size errors): the caller's input.
    Input,
    /// Anything else (a bug, bad stored data, a row that is not there): not an outage.
    Other,
}

impl StoreError {
    /// Classifies the error (see [`Failure`]).
    pub fn failure(&self) -> Failure {
        match self {
            StoreError::NotFound | StoreError::Corrupt(_) | StoreError::Migrate(_) => {
                Failure::Other
            }
            StoreError::Conflict(_) => Failure::Input,
            StoreError::Db(e) => failure_of(e),
        }
    }

    /// The database is unreachable or not answering ([`Failure::Outage`]).
    pub fn is_outage(&self) -> bool {
        self.failure() == Failure::Outage
    }
}

fn failure_of(e: &sqlx::Error) -> Failure {
    use sqlx::Error as E;
    match e {
        E::Io(_)
        | E::Tls(_)
        | E::Protocol(_)
        | E::PoolTimedOut
        | E::PoolClosed
        | E::WorkerCrashed
        | E::BeginFailed => Failure::Outage,
        E::Encode(_) | E::InvalidArgument(_) => Failure::Input,
        E::Database(db) => {
            let code = db.code();
            let code = code.as_deref().unwrap_or("");
            if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                sqlite_failure(code.parse::<i32>().ok())
            } else {
                postgres_failure(code)
            }
        }
        _ => Failure::Other,
    }
}

/// By the primary result code (the low byte of the extended one), from
/// <https://www.sqlite.org/rescode.html>.
fn sqlite_failure(code: Option<i32>) -> Failure {
    match code.map(|c| c & 0xff) {
        // BUSY, LOCKED (a lock wait ran out), NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN,
        // PROTOCOL, NOTADB.
        Some(5 | 6 | 7 | 8 | 10 | 11 | 13 | 14 | 15 | 26) => Failure::Outage,
        // INTERRUPT: the statement's deadline (see `Store::query_posts`).
        Some(9) => Failure::SlowQuery,
        // TOOBIG, CONSTRAINT, MISMATCH, RANGE.
        Some(18 | 19 | 20 | 25) => Failure::Input,
        _ => Failure::Other,
    }
}

/// By SQLSTATE class, from <https://www.postgresql.org/docs/current/errcodes-appendix.html>.
fn postgres_failure(sqlstate: &str) -> Failure {
    match sqlstate {
        // query_canceled (statement_timeout), lock_not_available (lock_timeout).
        "57014" | "55P03" => Failure::SlowQuery,
        // admin/crash shutdown, cannot connect now, idle-session timeout.
        s if s.starts_with("57P") => Failure::Outage,
        // connection exceptions, insufficient resources (connections, memory, disk), system
        // errors (I/O).
        s if ["08", "53", "58"].iter().any(|c| s.starts_with(c)) => Failure::Outage,
        // data exceptions, integrity constraint violations.
        s if s.starts_with("22") || s.starts_with("23") => Failure::Input,
        _ => Failure::Other,
    }
}

/// Unique constraints the API reports as conflicts. SQLite names the columns
/// ("UNIQUE constraint failed: projects.slug"); PostgreSQL names the constraint.
const UNIQUE_CONSTRAINTS: &[(&str, &str)] = &[
    ("users_email_key", "users.email"),
    ("projects_slug_key", "projects.slug"),
    ("projects_domain_key", "projects.domain"),
    ("projects_domain_unit_key", "projects.domain_unit"),
    ("projects_token_key", "projects.token"),
    ("projects_uuid_key", "projects.uuid"),
    (
        "collections_slug_key",
        "collections.project_id, collections.slug",
    ),
    ("fields_slug_key", "fields.collection_id, fields.slug"),
    ("posts_slug_key", "posts.collection_id, posts.slug"),
    ("pages_slug_key", "pages.project_id, pages.slug"),
    (
        "redirects_from_key",
        "redirects.project_id, redirects.from_path",
    ),
    ("templates_name_key", "templates.name"),
    ("blocks_name_key", "blocks.name_key"),
    ("blocks_uid_key", "blocks.uid"),
    ("block_categories_seed_key", "block_categories.seed_key"),
    ("form_history_uid_key", "form_history.uid"),
];

/// Turns a unique violation into [`StoreError::Conflict`]; anything else stays a database error.
pub(crate) fn map_err(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(db) = &e
        && db.is_unique_violation()
    {
        let msg = db.message();
        for (name, columns) in UNIQUE_CONSTRAINTS {
            if db.constraint() == Some(*name) || msg.ends_with(columns) {
                return StoreError::Conflict(name);
            }
        }
    }
    if let sqlx::Error::RowNotFound = e {
        return StoreError::NotFound;
    }
    StoreError::Db(e)
}

/// `NotFound` when a write by id touched no row.
pub(crate) fn touched(rows: u64) -> Result<()> {
    if rows == 0 {
        Err(StoreError::NotFound)
    } else {
        Ok(())
    }
}

/// Marks SQL assembled only from this module's constant column lists (never from input)
/// as safe to run, which sqlx 0.9 asks of every non-literal statement.
pub(crate) fn trusted(sql: &str) -> sqlx::AssertSqlSafe<&str> {
    sqlx::AssertSqlSafe(sql)
}

/// A `LIKE … ESCAPE '\\'` pattern matching `term` anywhere, lower-cased, with its own `%`, `_`
/// and `\\` taken literally.
pub(crate) fn like_pattern(term: &str) -> String {
    format!(
        "%{}%",
        term.trim()
            .to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    )
}

/// Now, at the microsecond precision both databases keep.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}

/// The PostgreSQL migrations (the test support names its template database for them).
#[cfg(any(test, feature = "testing"))]
pub(crate) fn postgres_migrations() -> &'static sqlx::migrate::Migrator {
    &migrations::POSTGRES
}

impl Store {
    /// Connects to `url` (`sqlite:` or `postgres:`). SQLite runs in WAL mode with foreign keys
    /// on and a busy timeout, so readers never block the writer and brief lock waits retry.
    #[tracing::instrument(level = "debug", skip_all, err(level = "debug"))]
    pub async fn connect(url: &str) -> Result<Self> {
        if url.starts_with("sqlite:") {
            let opts = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5));
            if let Some(parent) = opts.get_filename().parent()
                && !parent.as_os_str().is_empty()
            {
                std::fs::create_dir_all(parent).map_err(sqlx::Error::Io)?;
            }
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .connect_with(opts)
                .await?;
            Ok(Store::Sqlite(pool))
        } else {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(5))
                .connect(url)
                .await?;
            Ok(Store::Postgres(pool))
        }
    }

    /// Applies the migrations of this store's dialect.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn migrate(&self) -> Result<()> {
        match self {
            Store::Sqlite(p) => migrations::SQLITE.run(p).await?,
            Store::Postgres(p) => migrations::POSTGRES.run(p).await?,
        }
        Ok(())
    }

    /// The most connections the pool opens.
    #[tracing::instrument(level = "debug", skip(self))]
    pub fn pool_size(&self) -> u32 {
        dispatch!(self, p => p.options().get_max_connections())
    }

    #[tracing::instrument(level = "debug", skip(self))]
    pub fn backend_name(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    /// Checks the database answers (readiness probes).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn ping(&self) -> Result<()> {
        dispatch!(self, p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// Creates a PostgreSQL database (test and set-up tooling). The name must be a plain
    /// identifier, since it cannot be a bound parameter.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn create_database(&self, name: &str) -> Result<()> {
        let sql = format!("CREATE DATABASE {}", plain_identifier(name)?);
        dispatch!(self, p => sqlx::query(trusted(&sql))
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// Drops a PostgreSQL database, ending its sessions first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn drop_database(&self, name: &str) -> Result<()> {
        let sql = format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            plain_identifier(name)?
        );
        dispatch!(self, p => sqlx::query(trusted(&sql))
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self))]
    pub async fn close(&self) {
        dispatch!(self, p => p.close().await)
    }
}

fn plain_identifier(name: &str) -> Result<&str> {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        Ok(name)
    } else {
        Err(StoreError::Corrupt(format!(
            "not a plain identifier: {name:?}"
        )))
    }
}

#[cfg(test)]
mod instrumented;
#[cfg(test)]
mod schema_parity;
#[cfg(test)]
mod tests;
