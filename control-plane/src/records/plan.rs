//! Writing validated drafts: what each row will do (insert, update, leave unchanged, or be
//! refused with its problems) is planned against the database first, so an import's dry run
//! answers exactly what the real one writes; then the plan is written in one transaction, or
//! nothing is when any row is refused.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use vitrine_shared::ids::{CollectionId, PostId};
use vitrine_shared::store::{NewPost, PostUpdate};

use super::{Draft, Schema, assign_slugs, resolve_relations};
use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Problem},
};

/// How records are written: by slug, updating the stored record a slug names ("upsert", the
/// default of imports and spreadsheets, so that a file exported and edited goes back in), or
/// only inserted (a slug already stored is then a problem, or gets a suffix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    #[default]
    Upsert,
    Insert,
}

/// How many records a write inserted and updated, and how many rows named a stored record
/// without changing it (those are not written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Written {
    pub inserted: usize,
    pub updated: usize,
    pub unchanged: usize,
}

/// What a row does when the plan is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Insert,
    Update,
    Unchanged,
}

/// One planned row as it will be stored: its values are the ones the row carries (keyed by
/// field id), normalised, relations resolved.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub row: Option<usize>,
    pub action: Action,
    pub name: String,
    pub slug: String,
    pub values: Map<String, Value>,
}

/// Drafts planned against the stored records: what to insert and update, and the rows refused.
#[derive(Debug, Default)]
pub struct Plan {
    inserts: Vec<NewPost>,
    /// How many rows are inserted: `inserts.len()`, or for a [`Planner`] fed in chunks the
    /// posts its [`Planner::plan`] answered.
    inserted: usize,
    updates: Vec<PostUpdate>,
    /// Rows that name a stored record and change nothing in it.
    pub unchanged: usize,
    /// The planned rows numbered up to the `keep` given to [`plan_drafts`], in row order.
    pub outcomes: Vec<Outcome>,
    /// Why rows are refused (relations that point nowhere, repeated slugs).
    pub problems: Vec<Problem>,
}

impl Plan {
    pub fn inserted(&self) -> usize {
        self.inserted
    }

    pub fn updated(&self) -> usize {
        self.updates.len()
    }

    /// The updates, taken to be written.
    pub fn take_updates(&mut self) -> Vec<PostUpdate> {
        std::mem::take(&mut self.updates)
    }
}

/// Plans the drafts: relations and slugs are resolved against the database, and a row refused
/// for either is left out with its problems.
///
/// With [`WriteMode::Upsert`], a draft whose slug names a stored record of the collection
/// updates it (its name and the fields the draft carries; the others keep their values), or
/// leaves it unchanged when that changes nothing. The rest are inserted. `strict` (imports): a
/// slug given twice in the file, or (inserting only) a given slug already stored, is a problem
/// at its row; else (spreadsheets) it gets a `-2` suffix. A record without a slug always gets
/// a new one. `keep`: how many first rows' outcomes to keep, for a preview.
pub async fn plan_drafts(
    core: &Core,
    schema: &Schema,
    drafts: Vec<Draft>,
    explicit: Vec<bool>,
    mode: WriteMode,
    strict: bool,
    keep: usize,
) -> Result<Plan, ApiError> {
    let mut planner = Planner::new(core, schema, mode, strict, keep).await?;
    let inserts = planner.plan(drafts, explicit).await?;
    let mut plan = planner.finish().await?;
    plan.inserts = inserts;
    Ok(plan)
}

/// [`plan_drafts`] a chunk at a time, in row order: each chunk's new posts are known as soon
/// as it is planned, so an import writes them while it reads the next (see
/// `Store::write_posts_streamed`). Every decision about a row depends only on the rows before
/// it and the stored records, so chunks give exactly the plan one call gives (the dry run and
/// the real import agree).
pub struct Planner<'a> {
    core: &'a Core,
    schema: &'a Schema,
    mode: WriteMode,
    strict: bool,
    keep: usize,
    /// The collection's stored slugs, and their records.
    stored: HashMap<String, PostId>,
    /// Slugs given in the file so far (a repeat is refused when `strict`).
    seen: HashSet<String>,
    /// Slugs stored or given to an insert so far.
    taken: HashSet<String>,
    updates: Vec<(PostId, Draft)>,
    inserted: usize,
    outcomes: Vec<Outcome>,
    problems: Vec<Problem>,
    now: DateTime<Utc>,
}

impl<'a> Planner<'a> {
    pub async fn new(
        core: &'a Core,
        schema: &'a Schema,
        mode: WriteMode,
        strict: bool,
        keep: usize,
    ) -> Result<Self, ApiError> {
        let stored = core.store.post_slugs(schema.collection.id).await?;
        let taken = stored.keys().cloned().collect();
        Ok(Planner {
            core,
            schema,
            mode,
            strict,
            keep,
            stored,
            seen: HashSet::new(),
            taken,
            updates: Vec::new(),
            inserted: 0,
            outcomes: Vec::new(),
            problems: Vec::new(),
            now: vitrine_shared::store::now(),
        })
    }

    /// Whether a row refused so far (by the plan).
    pub fn refused_any(&self) -> bool {
        !self.problems.is_empty()
    }

    /// Plans the next drafts (in row order, after every draft planned before); answers the
    /// posts they insert. The updates wait for [`Planner::finish`].
    pub async fn plan(
        &mut self,
        mut drafts: Vec<Draft>,
        explicit: Vec<bool>,
    ) -> Result<Vec<NewPost>, ApiError> {
        let problems = resolve_relations(self.core, self.schema, &mut drafts).await?;
        let refused: HashSet<Option<usize>> = problems.iter().map(|p| p.row).collect();
        self.problems.extend(problems);
        let mut inserts = Vec::new();
        let mut inserts_explicit = Vec::new();
        for (d, given) in drafts.into_iter().zip(explicit) {
            if refused.contains(&d.row) {
                continue;
            }
            if given && self.strict && !self.seen.insert(d.slug.clone()) {
                self.problems.push(
                    Problem::new(
                        d.row,
                        Some("slug"),
                        ErrorCode::RecordSlugRepeated,
                        format!("duplicate slug {:?}", d.slug),
                    )
                    .param("slug", d.slug.clone()),
                );
                continue;
            }
            match self.stored.get(&d.slug) {
                Some(id) if given && self.mode == WriteMode::Upsert => self.updates.push((*id, d)),
                _ => {
                    inserts.push(d);
                    inserts_explicit.push(given);
                }
            }
        }
        let slug_problems = assign_slugs(
            &mut inserts,
            &mut self.taken,
            &inserts_explicit,
            self.strict,
        );
        let refused: HashSet<Option<usize>> = slug_problems.iter().map(|p| p.row).collect();
        self.problems.extend(slug_problems);
        inserts.retain(|d| !refused.contains(&d.row));

        let keep = self.keep;
        self.outcomes.extend(
            inserts
                .iter()
                .filter(|d| d.row.is_some_and(|r| r <= keep))
                .map(|d| Outcome {
                    row: d.row,
                    action: Action::Insert,
                    name: d.name.clone(),
                    slug: d.slug.clone(),
                    values: d.values.clone(),
                }),
        );
        self.inserted += inserts.len();
        Ok(inserts
            .into_iter()
            .map(|d| d.into_new_post(self.now))
            .collect())
    }

    /// The plan, once every draft is planned: the updates merged with the stored values, the
    /// outcomes of the first rows and every problem. Its inserts are the ones [`Planner::plan`]
    /// answered (the plan holds only their count).
    pub async fn finish(self) -> Result<Plan, ApiError> {
        let mut plan = Plan {
            inserted: self.inserted,
            ..Plan::default()
        };
        let mut outcomes = self.outcomes;
        for (update, d) in merge_stored(self.core, self.schema.collection.id, self.updates).await? {
            let action = if update.is_some() {
                Action::Update
            } else {
                Action::Unchanged
            };
            if d.row.is_some_and(|r| r <= self.keep) {
                outcomes.push(Outcome {
                    row: d.row,
                    action,
                    name: d.name,
                    slug: d.slug,
                    values: d.values,
                });
            }
            match update {
                Some(u) => plan.updates.push(u),
                None => plan.unchanged += 1,
            }
        }
        outcomes.sort_by_key(|o| o.row);
        plan.outcomes = outcomes;
        plan.problems = self.problems;
        Ok(plan)
    }
}

/// Writes a plan in one transaction; a plan with refused rows writes nothing and answers
/// their problems.
pub async fn write_plan(core: &Core, schema: &Schema, plan: Plan) -> Result<Written, ApiError> {
    if !plan.problems.is_empty() {
        return Err(ApiError::from(plan.problems));
    }
    if !plan.inserts.is_empty() || !plan.updates.is_empty() {
        core.store
            .write_posts(
                schema.collection.id,
                &plan.inserts,
                &plan.updates,
                core.settings.records_per_account,
            )
            .await?;
    }
    Ok(Written {
        inserted: plan.inserts.len(),
        updated: plan.updates.len(),
        unchanged: plan.unchanged,
    })
}

/// Plans the drafts and writes them (see [`plan_drafts`]); any problem writes nothing.
pub async fn write_drafts(
    core: &Core,
    schema: &Schema,
    drafts: Vec<Draft>,
    explicit: Vec<bool>,
    mode: WriteMode,
    strict: bool,
) -> Result<Written, ApiError> {
    let plan = plan_drafts(core, schema, drafts, explicit, mode, strict, 0).await?;
    write_plan(core, schema, plan).await
}

/// Each update with the stored values of the fields its draft does not carry, or `None` when
/// it changes neither the name nor any value; read in keyset pages of the collection (one
/// pass, however many records are updated).
async fn merge_stored(
    core: &Core,
    collection: CollectionId,
    updates: Vec<(PostId, Draft)>,
) -> Result<Vec<(Option<PostUpdate>, Draft)>, ApiError> {
    if updates.is_empty() {
        return Ok(Vec::new());
    }
    let wanted: HashSet<PostId> = updates.iter().map(|(id, _)| *id).collect();
    let mut stored = HashMap::with_capacity(wanted.len());
    let mut after = PostId(0);
    loop {
        let page = core.store.posts_after(collection, after, 1000).await?;
        let Some(last) = page.last() else { break };
        after = last.id;
        stored.extend(
            page.into_iter()
                .filter(|p| wanted.contains(&p.id))
                .map(|p| (p.id, (p.name, p.data.0))),
        );
    }
    Ok(updates
        .into_iter()
        .map(|(id, d)| {
            let (name, before) = stored.remove(&id).unwrap_or_default();
            let mut data = before.clone();
            data.extend(d.values.clone());
            let changed = name != d.name || data != before;
            let update = changed.then(|| PostUpdate {
                id,
                name: d.name.clone(),
                data,
            });
            (update, d)
        })
        .collect())
}
