//! The migrations in `migrations/` render to one text per dialect (`super::migrations`), and a
//! line may be one dialect's alone. This test keeps the two schemas equal: both are migrated
//! and read back from their catalogues, and every table, column (its type family and whether
//! it may be null) and index must be in both. A `--postgres:` line without its `--sqlite:`
//! counterpart, or a type one dialect stores differently, fails here.

use std::collections::BTreeMap;

use sqlx::{Connection, PgConnection, Row, SqliteConnection};

use crate::testing::{Backend, TestDb};

/// A column as both catalogues can say it: its type family and whether it is NOT NULL.
type Columns = BTreeMap<String, BTreeMap<String, (&'static str, bool)>>;
/// Explicitly created indexes (not those behind a primary key or a UNIQUE/FK constraint): their
/// table and whether they are unique.
type Indexes = BTreeMap<String, (String, bool)>;

/// One name per type family. SQLite keeps booleans as INTEGER, times as TEXT and JSON as TEXT,
/// so those PostgreSQL types read as the SQLite type they are stored in.
fn family(declared: &str) -> &'static str {
    match declared.to_ascii_lowercase().as_str() {
        "integer" | "bigint" | "smallint" | "int" | "boolean" => "integer",
        "real" | "double precision" => "real",
        "text" | "json" | "jsonb" | "timestamp with time zone" | "character varying" => "text",
        "blob" | "bytea" => "blob",
        _ => "other",
    }
}

async fn sqlite_schema(url: &str) -> (Columns, Indexes) {
    let mut c = SqliteConnection::connect(url).await.expect("sqlite");
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations'",
    )
    .fetch_all(&mut c)
    .await
    .expect("tables");
    let mut columns = Columns::new();
    for table in tables {
        // `table_xinfo`, not `table_info`: it lists generated columns too.
        let rows = sqlx::query("SELECT name, type, \"notnull\", pk FROM pragma_table_xinfo(?)")
            .bind(&table)
            .fetch_all(&mut c)
            .await
            .expect("columns");
        let cols = rows
            .iter()
            .map(|r| {
                let (name, ty): (String, String) = (r.get(0), r.get(1));
                // A primary key is NOT NULL in PostgreSQL; SQLite's catalogue leaves it unsaid.
                let not_null = r.get::<i64, _>(2) != 0 || r.get::<i64, _>(3) != 0;
                (name, (family(&ty), not_null))
            })
            .collect();
        columns.insert(table, cols);
    }
    let rows = sqlx::query(
        "SELECT m.name, m.tbl_name, il.\"unique\" FROM sqlite_master m \
         JOIN pragma_index_list(m.tbl_name) il ON il.name = m.name \
         WHERE m.type = 'index' AND m.sql IS NOT NULL",
    )
    .fetch_all(&mut c)
    .await
    .expect("indexes");
    let indexes = rows
        .iter()
        .map(|r| (r.get(0), (r.get(1), r.get::<i64, _>(2) != 0)))
        .collect();
    (columns, indexes)
}

async fn postgres_schema(url: &str) -> (Columns, Indexes) {
    let mut c = PgConnection::connect(url).await.expect("postgres");
    let rows = sqlx::query(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable = 'NO' \
         FROM information_schema.columns \
         WHERE table_schema = 'public' AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(&mut c)
    .await
    .expect("columns");
    let mut columns = Columns::new();
    for r in rows {
        let (table, name, ty): (String, String, String) = (r.get(0), r.get(1), r.get(2));
        columns
            .entry(table)
            .or_default()
            .insert(name, (family(&ty), r.get(3)));
    }
    let rows = sqlx::query(
        "SELECT i.relname::text, t.relname::text, x.indisunique FROM pg_index x \
         JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid \
         JOIN pg_namespace n ON n.oid = t.relnamespace \
         WHERE n.nspname = 'public' AND t.relname <> '_sqlx_migrations' \
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)",
    )
    .fetch_all(&mut c)
    .await
    .expect("indexes");
    let indexes = rows
        .iter()
        .map(|r| (r.get(0), (r.get(1), r.get(2))))
        .collect();
    (columns, indexes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_dialects_migrate_to_the_same_tables_columns_and_indexes() {
    let (lite, pg) = (
        TestDb::new(Backend::Sqlite).await,
        TestDb::new(Backend::Postgres).await,
    );
    let (lite_columns, lite_indexes) = sqlite_schema(&lite.url).await;
    let (pg_columns, pg_indexes) = postgres_schema(&pg.url).await;

    assert!(
        lite_columns.len() > 30,
        "the schema was read: {lite_columns:?}"
    );
    assert!(
        lite_indexes.len() > 20,
        "the indexes were read: {lite_indexes:?}"
    );
    assert_eq!(
        lite_columns.keys().collect::<Vec<_>>(),
        pg_columns.keys().collect::<Vec<_>>(),
        "the same tables"
    );
    for (table, lite_cols) in &lite_columns {
        assert_eq!(
            lite_cols, &pg_columns[table],
            "table {table}: (type family, NOT NULL)"
        );
    }
    assert_eq!(
        lite_indexes, pg_indexes,
        "the same indexes: (table, unique)"
    );
}
