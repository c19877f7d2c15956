//! A collection's fields: its schema. A field's type change refits every stored value of
//! the field in the same transaction.

use serde_json::{Map, Value};
use sqlx::types::Json;

use super::records_changed;
use crate::ids::{CollectionId, FieldId};
use crate::store::{
    BeginWrite, Result, Store, StoreError, dispatch, map_err, now, projects::first_free, trusted,
};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Field {
    pub id: FieldId,
    pub collection_id: CollectionId,
    pub name: String,
    pub slug: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub required: bool,
    pub position: i64,
    pub options: Json<Value>,
    pub meta: Json<Value>,
}

/// A field being created or changed, already validated.
#[derive(Debug, Clone)]
pub struct FieldInput {
    pub name: String,
    pub slug: String,
    pub kind: String,
    pub required: bool,
    pub options: Value,
    pub meta: Value,
}

const FIELD_COLUMNS: &str =
    "id, collection_id, name, slug, type, required, position, options, meta";

impl Store {
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn collection_fields(&self, collection_id: CollectionId) -> Result<Vec<Field>> {
        let sql = format!(
            "SELECT {FIELD_COLUMNS} FROM fields WHERE collection_id = $1 ORDER BY position, id"
        );
        dispatch!(self, p => sqlx::query_as::<_, Field>(trusted(&sql)).bind(collection_id)
            .fetch_all(p).await.map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn field_by_id(&self, id: FieldId) -> Result<Field> {
        let sql = format!("SELECT {FIELD_COLUMNS} FROM fields WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Field>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// A free field slug within a collection.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn free_field_slug(
        &self,
        collection_id: CollectionId,
        base: &str,
        except: Option<FieldId>,
    ) -> Result<String> {
        let taken: Vec<String> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT slug FROM fields WHERE collection_id = $1 AND slug LIKE $2 AND id <> $3")
            .bind(collection_id).bind(format!("{base}%")).bind(except.unwrap_or(FieldId(0)))
            .fetch_all(p).await.map_err(map_err))?;
        Ok(first_free(base, &taken))
    }

    /// Adds a field at the end of the collection's order.
    #[tracing::instrument(level = "debug", skip(self, f), fields(slug = f.slug.as_str()), err(level = "debug"))]
    pub async fn insert_field(&self, collection_id: CollectionId, f: &FieldInput) -> Result<Field> {
        let sql = format!(
            "INSERT INTO fields \
             (collection_id, name, slug, type, required, position, options, meta) \
             VALUES ($1, $2, $3, $4, $5, \
             (SELECT COALESCE(MAX(position), -1) + 1 FROM fields WHERE collection_id = $1), $6, \
             $7) RETURNING {FIELD_COLUMNS}"
        );
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let field = sqlx::query_as::<_, Field>(trusted(&sql))
                .bind(collection_id).bind(&f.name).bind(&f.slug).bind(&f.kind).bind(f.required)
                .bind(Json(&f.options)).bind(Json(&f.meta))
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, collection_id)?;
            tx.commit().await.map_err(map_err)?;
            Ok(field)
        })
    }

    /// Changes a field. When its type changes, every stored value of the field is made fit
    /// for the new type ([`crate::fields::retype`]: rich text sanitised, markup stripped,
    /// what cannot be held cleared) in the same transaction, so no value outlives the rules
    /// it was accepted under.
    #[tracing::instrument(level = "debug", skip(self, f), fields(slug = f.slug.as_str()), err(level = "debug"))]
    pub async fn update_field(&self, id: FieldId, f: &FieldInput) -> Result<Field> {
        let sql = format!(
            "UPDATE fields \
             SET name = $1, slug = $2, type = $3, required = $4, options = $5, meta = $6 \
             WHERE id = $7 RETURNING {FIELD_COLUMNS}"
        );
        let new_def =
            crate::fields::FieldType::parse(&f.kind).map(|kind| crate::fields::FieldDef {
                id,
                name: f.name.clone(),
                slug: f.slug.clone(),
                kind,
                required: f.required,
                options: serde_json::from_value(f.options.clone()).unwrap_or_default(),
                meta: serde_json::from_value(f.meta.clone()).unwrap_or_default(),
            });
        let key = id.to_string();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let old: Option<String> = sqlx::query_scalar("SELECT type FROM fields WHERE id = $1")
                .bind(id).fetch_optional(&mut *tx).await.map_err(map_err)?;
            let old = old.ok_or(StoreError::NotFound)?;
            let field = sqlx::query_as::<_, Field>(trusted(&sql))
                .bind(&f.name).bind(&f.slug).bind(&f.kind).bind(f.required)
                .bind(Json(&f.options)).bind(Json(&f.meta)).bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            if let (Some(from), Some(to)) = (crate::fields::FieldType::parse(&old), &new_def)
                && from != to.kind
            {
                let (mut after, ts) = (0_i64, now());
                loop {
                    let page: Vec<(i64, Json<Map<String, Value>>)> = sqlx::query_as(
                        "SELECT id, data FROM posts WHERE collection_id = $1 AND id > $2 \
                         ORDER BY id LIMIT 500")
                        .bind(field.collection_id).bind(after)
                        .fetch_all(&mut *tx).await.map_err(map_err)?;
                    let Some(last) = page.last() else { break };
                    after = last.0;
                    for (post_id, Json(mut data)) in page {
                        let Some(value) = data.get(&key) else { continue };
                        let fitted = crate::fields::retype(from, to, value);
                        if &fitted == value {
                            continue;
                        }
                        data.insert(key.clone(), fitted);
                        sqlx::query("UPDATE posts SET data = $1, updated_at = $2 WHERE id = $3")
                            .bind(Json(&data)).bind(ts).bind(post_id)
                            .execute(&mut *tx).await.map_err(map_err)?;
                    }
                }
            }
            records_changed!(tx, field.collection_id)?;
            tx.commit().await.map_err(map_err)?;
            Ok(field)
        })
    }

    /// Deletes a field and removes its value from every post, in one transaction.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_field(&self, id: FieldId) -> Result<()> {
        let field = self.field_by_id(id).await?;
        // Only the statement that drops the key differs between the dialects.
        let (strip, key) = match self {
            Store::Sqlite(_) => (
                "UPDATE posts SET data = json_remove(data, $1) WHERE collection_id = $2",
                format!("$.\"{id}\""),
            ),
            Store::Postgres(_) => (
                "UPDATE posts SET data = (data::jsonb - $1)::json WHERE collection_id = $2",
                id.to_string(),
            ),
        };
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            sqlx::query(strip).bind(&key).bind(field.collection_id)
                .execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("DELETE FROM fields WHERE id = $1").bind(id)
                .execute(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, field.collection_id)?;
            tx.commit().await.map_err(map_err)
        })
    }

    /// Sets the order of a collection's fields to `ids` (which must all belong to it).
    #[tracing::instrument(level = "debug", skip(self, ids), fields(ids = ids.len()), err(level = "debug"))]
    pub async fn reorder_fields(&self, collection_id: CollectionId, ids: &[FieldId]) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            for (position, id) in ids.iter().enumerate() {
                let n = sqlx::query("UPDATE fields SET position = $1 \
                                     WHERE id = $2 AND collection_id = $3")
                    .bind(position as i64).bind(id).bind(collection_id)
                    .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
                if n != 1 {
                    return Err(StoreError::NotFound);
                }
            }
            records_changed!(tx, collection_id)?;
            tx.commit().await.map_err(map_err)
        })
    }
}
