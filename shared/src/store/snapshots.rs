//! Export and import of [`Snapshot`]s. Import runs in one transaction: a duplicate or a
//! project made from a template appears whole or not at all.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use sqlx::types::Json;

use super::BeginWrite;
use super::{
    Project, Result, Store, StoreError, dispatch, map_err, now,
    projects::{NewProject, PROJECT_COLUMNS},
    storage::{account_of_user_sql, reserve_records},
    trusted,
};
use crate::ids::{CollectionId, FieldId, PostId, ProjectId};
use crate::sections::SectionKind;
use crate::snapshot::{SnapField, SnapPage, SnapPost, SnapRedirect, SnapTable, Snapshot};

#[derive(sqlx::FromRow)]
struct CollectionRow {
    id: CollectionId,
    name: String,
    slug: String,
    meta: Json<Value>,
}

#[derive(sqlx::FromRow)]
struct FieldRow {
    id: FieldId,
    collection_id: CollectionId,
    name: String,
    slug: String,
    #[sqlx(rename = "type")]
    kind: String,
    required: bool,
    options: Json<Value>,
    meta: Json<Value>,
}

#[derive(sqlx::FromRow)]
struct PostRow {
    id: PostId,
    collection_id: CollectionId,
    name: String,
    slug: String,
    data: Json<Map<String, Value>>,
    created_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct PageRow {
    name: String,
    slug: String,
    description: String,
    image: String,
    meta: Json<Value>,
    output: String,
    blocks: Json<Value>,
    table_id: Option<CollectionId>,
}

/// Maps relation values (an id, or a list of ids) through `f`.
fn map_relation(value: &Value, f: impl Fn(&Value) -> Option<Value>) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().filter_map(&f).collect()),
        Value::Null => Value::Null,
        v => f(v).unwrap_or(Value::Null),
    }
}

impl Store {
    /// The project's content as a snapshot (no domain, token or publish state).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn export_snapshot(&self, project_id: ProjectId) -> Result<Snapshot> {
        let project = self.project_by_id(project_id).await?;
        let (collections, fields, posts, pages, redirects) = dispatch!(self, p => {
            let collections: Vec<CollectionRow> = sqlx::query_as(
                "SELECT id, name, slug, meta FROM collections WHERE project_id = $1 ORDER BY id")
                .bind(project_id).fetch_all(p).await.map_err(map_err)?;
            let fields: Vec<FieldRow> = sqlx::query_as(
                "SELECT f.id, f.collection_id, f.name, f.slug, \
                 f.type, f.required, f.options, f.meta FROM fields f \
                 JOIN collections c ON c.id = f.collection_id \
                 WHERE c.project_id = $1 ORDER BY f.position, f.id")
                .bind(project_id).fetch_all(p).await.map_err(map_err)?;
            let posts: Vec<PostRow> = sqlx::query_as(
                "SELECT po.id, po.collection_id, po.name, po.slug, po.data, po.created_at \
                 FROM posts po JOIN collections c ON c.id = po.collection_id \
                 WHERE c.project_id = $1 ORDER BY po.id")
                .bind(project_id).fetch_all(p).await.map_err(map_err)?;
            let pages: Vec<PageRow> = sqlx::query_as(
                "SELECT name, slug, description, image, meta, output, blocks, table_id FROM pages \
                 WHERE project_id = $1 ORDER BY id")
                .bind(project_id).fetch_all(p).await.map_err(map_err)?;
            let redirects: Vec<(String, String)> = sqlx::query_as(
                "SELECT from_path, to_path FROM redirects WHERE project_id = $1 ORDER BY id")
                .bind(project_id).fetch_all(p).await.map_err(map_err)?;
            Ok::<_, StoreError>((collections, fields, posts, pages, redirects))
        })?;

        let table_slug: HashMap<CollectionId, &str> = collections
            .iter()
            .map(|c| (c.id, c.slug.as_str()))
            .collect();
        let post_slug: HashMap<PostId, &str> =
            posts.iter().map(|p| (p.id, p.slug.as_str())).collect();
        let mut tables: Vec<SnapTable> = collections
            .iter()
            .map(|c| SnapTable {
                name: c.name.clone(),
                slug: c.slug.clone(),
                meta: c.meta.0.clone(),
                fields: vec![],
                posts: vec![],
            })
            .collect();
        let index: HashMap<CollectionId, usize> = collections
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id, i))
            .collect();
        let field_by_id: HashMap<FieldId, &FieldRow> = fields.iter().map(|f| (f.id, f)).collect();

        for f in &fields {
            let mut meta = f.meta.0.clone();
            if f.kind == "relation"
                && let Some(obj) = meta.as_object_mut()
            {
                let target = obj
                    .get("table")
                    .and_then(Value::as_i64)
                    .and_then(|id| table_slug.get(&CollectionId(id)));
                obj.insert(
                    "table".into(),
                    target.map(|s| Value::from(*s)).unwrap_or(Value::Null),
                );
            }
            tables[index[&f.collection_id]].fields.push(SnapField {
                name: f.name.clone(),
                slug: f.slug.clone(),
                kind: f.kind.clone(),
                required: if f.required { "1" } else { "0" }.into(),
                options: f.options.0.clone(),
                meta,
            });
        }
        for post in &posts {
            let mut values = Map::new();
            for (field_id, value) in &post.data.0 {
                let Some(field) = field_id
                    .parse()
                    .ok()
                    .and_then(|id: FieldId| field_by_id.get(&id))
                else {
                    continue;
                };
                let value = if field.kind == "relation" {
                    map_relation(value, |v| {
                        v.as_i64()
                            .and_then(|id| post_slug.get(&PostId(id)))
                            .map(|s| Value::from(*s))
                    })
                } else {
                    value.clone()
                };
                values.insert(field.slug.clone(), value);
            }
            tables[index[&post.collection_id]].posts.push(SnapPost {
                name: post.name.clone(),
                slug: post.slug.clone(),
                created_at: Some(post.created_at),
                fields: values,
            });
        }
        let mut meta = project.meta.0.clone();
        if let Some(obj) = meta.as_object_mut() {
            // Per-site secrets and integrations are not part of a copy.
            for key in [
                "conversionApiAccessToken",
                "conversionApiPixelId",
                "conversionApiEnabled",
            ] {
                obj.remove(key);
            }
        }
        let sections = self.global_sections(project_id).await?;
        Ok(Snapshot {
            sections,
            project_meta: meta,
            pages: pages
                .into_iter()
                .map(|p| SnapPage {
                    name: p.name,
                    slug: p.slug,
                    description: p.description,
                    image: p.image,
                    meta: p.meta.0,
                    output: p.output,
                    blocks: p.blocks.0,
                    table: p
                        .table_id
                        .and_then(|id| table_slug.get(&id))
                        .map(|s| s.to_string()),
                })
                .collect(),
            tables,
            redirects: redirects
                .into_iter()
                .map(|(from, to)| SnapRedirect { from, to })
                .collect(),
        })
    }

    /// Creates a project holding `snapshot`'s content, all in one transaction. `new.meta` is
    /// merged over the snapshot's project meta. Its records count against the owner's
    /// account: past `records_cap`, `Conflict(RECORDS_FULL)` and nothing is written.
    #[tracing::instrument(level = "debug", skip_all, fields(slug = new.slug), err(level = "debug"))]
    pub async fn insert_project_from_snapshot(
        &self,
        new: &NewProject<'_>,
        snapshot: &Snapshot,
        records_cap: u64,
    ) -> Result<Project> {
        let account_sql = account_of_user_sql();
        let records: i64 = snapshot.tables.iter().map(|t| t.posts.len() as i64).sum();
        snapshot.check().map_err(StoreError::Corrupt)?;
        let mut meta = match &snapshot.project_meta {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        };
        if let Value::Object(extra) = &new.meta {
            meta.extend(extra.clone());
        }
        let ts = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            reserve_records!(tx, &account_sql, new.user_id, records, records_cap).await?;
            super::domains::take_slug!(tx, new.slug, new.user_id).await?;
            let sql = format!(
                "INSERT INTO projects \
                 (user_id, name, slug, token, uuid, meta, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $7) \
                 RETURNING {PROJECT_COLUMNS}");
            let project: Project = sqlx::query_as(trusted(&sql))
                .bind(new.user_id).bind(new.name).bind(new.slug).bind(new.token).bind(new.uuid)
                .bind(Json(Value::Object(meta))).bind(ts)
                .fetch_one(&mut *tx).await.map_err(map_err)?;

            // Collections first, so relation fields and collection pages can point at them.
            let mut table_ids: HashMap<&str, CollectionId> = HashMap::new();
            for t in &snapshot.tables {
                let id: CollectionId = sqlx::query_scalar(
                    "INSERT INTO collections \
                     (project_id, name, slug, meta, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $5) RETURNING id")
                    .bind(project.id).bind(&t.name).bind(&t.slug).bind(Json(&t.meta)).bind(ts)
                    .fetch_one(&mut *tx).await.map_err(map_err)?;
                table_ids.insert(t.slug.as_str(), id);
            }
            // Fields, remembering which are relations and their target collection.
            let mut field_ids: HashMap<(&str, &str), (FieldId, Option<&str>)> = HashMap::new();
            for t in &snapshot.tables {
                for (position, f) in t.fields.iter().enumerate() {
                    let mut meta = f.meta.clone();
                    let mut target = None;
                    if f.kind == "relation"
                        && let Some(obj) = meta.as_object_mut()
                    {
                        // `check` guarantees the target exists; borrow its slug from the snapshot.
                        target = obj
                            .get("table")
                            .and_then(Value::as_str)
                            .and_then(|s| snapshot.tables.iter().find(|x| x.slug == s))
                            .map(|x| x.slug.as_str());
                        let id = target.and_then(|s| table_ids.get(s)).copied();
                        obj.insert("table".into(), id.map(|id| Value::from(id.get())).unwrap_or(Value::Null));
                    }
                    let id: FieldId = sqlx::query_scalar(
                        "INSERT INTO fields \
                         (collection_id, name, slug, type, required, position, options, meta) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id")
                        .bind(table_ids[t.slug.as_str()]).bind(&f.name).bind(&f.slug).bind(&f.kind)
                        .bind(f.required == "1").bind(position as i64)
                        .bind(Json(&f.options)).bind(Json(&meta))
                        .fetch_one(&mut *tx).await.map_err(map_err)?;
                    field_ids.insert((t.slug.as_str(), f.slug.as_str()), (id, target));
                }
            }
            // Posts without relation values, then relation values once every post has an id.
            let mut post_ids: HashMap<(&str, &str), PostId> = HashMap::new();
            let mut pending_relations = Vec::new();
            for t in &snapshot.tables {
                for post in &t.posts {
                    let mut data = Map::new();
                    let mut relations: Vec<(String, &str, &Value)> = Vec::new();
                    for (field_slug, value) in &post.fields {
                        let Some((field_id, target)) =
                            field_ids.get(&(t.slug.as_str(), field_slug.as_str()))
                        else {
                            continue;
                        };
                        match target {
                            Some(target) => relations.push((field_id.to_string(), *target, value)),
                            None => {
                                data.insert(field_id.to_string(), value.clone());
                            }
                        }
                    }
                    let created = post.created_at.unwrap_or(ts);
                    let id: PostId = sqlx::query_scalar(
                        "INSERT INTO posts \
                         (collection_id, name, slug, data, created_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
                        .bind(table_ids[t.slug.as_str()]).bind(&post.name).bind(&post.slug)
                        .bind(Json(Value::Object(data.clone()))).bind(created).bind(ts)
                        .fetch_one(&mut *tx).await.map_err(map_err)?;
                    post_ids.insert((t.slug.as_str(), post.slug.as_str()), id);
                    if !relations.is_empty() {
                        pending_relations.push((id, data, relations));
                    }
                }
            }
            for (post_id, mut data, relations) in pending_relations {
                for (field_id, target, value) in relations {
                    let value = map_relation(value, |v| {
                        v.as_str()
                            .and_then(|slug| post_ids.get(&(target, slug)))
                            .map(|id| Value::from(id.get()))
                    });
                    data.insert(field_id, value);
                }
                sqlx::query("UPDATE posts SET data = $1 WHERE id = $2")
                    .bind(Json(Value::Object(data))).bind(post_id)
                    .execute(&mut *tx).await.map_err(map_err)?;
            }
            sqlx::query(
                "UPDATE collections SET post_count = \
                 (SELECT COUNT(*) FROM posts WHERE posts.collection_id = collections.id) \
                 WHERE project_id = $1")
                .bind(project.id)
                .execute(&mut *tx).await.map_err(map_err)?;
            for page in &snapshot.pages {
                let table_id = page.table.as_deref().and_then(|s| table_ids.get(s)).copied();
                sqlx::query(
                    "INSERT INTO pages \
                     (project_id, name, slug, description, image, meta, output, blocks, table_id, \
                     created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)")
                    .bind(project.id).bind(&page.name).bind(&page.slug)
                    .bind(&page.description).bind(&page.image)
                    .bind(Json(&page.meta)).bind(&page.output)
                    .bind(Json(&page.blocks)).bind(table_id).bind(ts)
                    .execute(&mut *tx).await.map_err(map_err)?;
            }
            for kind in SectionKind::ALL {
                if let Some(block) = snapshot.sections.get(kind) {
                    sqlx::query(
                        "INSERT INTO global_sections \
                         (project_id, kind, block, created_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $4)")
                        .bind(project.id).bind(kind.as_str()).bind(Json(block)).bind(ts)
                        .execute(&mut *tx).await.map_err(map_err)?;
                }
            }
            for r in &snapshot.redirects {
                sqlx::query("INSERT INTO redirects (project_id, from_path, to_path, created_at) \
                             VALUES ($1, $2, $3, $4)")
                    .bind(project.id).bind(&r.from).bind(&r.to).bind(ts)
                    .execute(&mut *tx).await.map_err(map_err)?;
            }
            tx.commit().await.map_err(map_err)?;
            Ok(project)
        })
    }
}
