//! API-fed lists (`"source": "api:https://…"`): the outbound fetches behind them, shared fairly.
//!
//! Every fetch goes out through the outbound guard ([`crate::outbound`]: no private
//! addresses, ports 80 and 443, a size cap). Left at that, one canvas request of 139 KB with
//! 2,000 blocks naming 2,000 addresses made the control plane send 2,000 GETs for it, and an
//! account could keep doing so. So:
//!
//! - **per render:** a render's lists are de-duplicated by address, and at most
//!   [`FETCHES_PER_RENDER`] distinct addresses are fetched; the lists beyond are empty;
//! - **per account:** at most `FETCHES_PER_ACCOUNT_PER_MINUTE` fetches a minute (a business
//!   counts as one account); past it a list is empty in the canvas and the preview, and the
//!   editor's fetch (`/api/fetch`) and a publish get 429 `fetch_rate_limited`;
//! - **a short cache:** an address fetched in the last [`CACHE_FOR`] is answered from memory
//!   and costs no fetch. The cache is shared: an address is public, fetched without
//!   credentials, so every tenant that names it would get the same answer.

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use serde_json::Value as Json;
use vitrine_shared::{account::Account, render::Block};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Result},
    throttle::Key,
};

/// Records an API-fed list keeps (spec 2 §5: external data is capped at 100 records).
pub const MAX_EXTERNAL_RECORDS: usize = 100;
/// Distinct addresses one render fetches at most.
pub const FETCHES_PER_RENDER: usize = 10;
/// How long a fetched answer is reused.
pub const CACHE_FOR: Duration = Duration::from_secs(60);
/// What the cache of answers holds at most, in bytes of JSON.
const CACHE_BYTES: u64 = 16 * 1024 * 1024;

/// Recently fetched answers, by address: the lists' own state, cloned cheaply (the cache is
/// shared between clones).
#[derive(Clone)]
pub struct Answers(moka::future::Cache<String, Arc<[Json]>>);

impl Default for Answers {
    fn default() -> Self {
        Answers(
            moka::future::Cache::builder()
                .max_capacity(CACHE_BYTES)
                .weigher(|url: &String, records: &Arc<[Json]>| {
                    let bytes: usize = records.iter().map(|r| r.to_string().len()).sum();
                    u32::try_from(url.len() + bytes).unwrap_or(u32::MAX)
                })
                .time_to_live(CACHE_FOR)
                .build(),
        )
    }
}

/// The records of every API-fed list of `blocks` (see the module docs); a list whose fetch
/// fails, or is not made, is empty (the editor shows the error through `/api/fetch`).
pub async fn api_lists(
    core: &Core,
    answers: &Answers,
    account: Account,
    blocks: &[Block],
) -> BTreeMap<String, Vec<Json>> {
    let mut fetched: BTreeMap<String, Vec<Json>> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (key, url) in blocks.iter().flat_map(Block::api_lists) {
        let records = match fetched.get(&url) {
            Some(records) => records.clone(),
            None if fetched.len() >= FETCHES_PER_RENDER => Vec::new(),
            None => {
                let records = fetch_records(core, answers, account, &url)
                    .await
                    .unwrap_or_default();
                fetched.insert(url, records.clone());
                records
            }
        };
        out.insert(key, records);
    }
    out
}

/// Fetches an outside JSON API through the outbound guard, within `account`'s fetches a
/// minute unless it was fetched a moment ago, and returns at most
/// [`MAX_EXTERNAL_RECORDS`] records: the answer's array, or its `data` array.
pub async fn fetch_records(
    core: &Core,
    answers: &Answers,
    account: Account,
    url: &str,
) -> Result<Vec<Json>> {
    if let Some(records) = answers.0.get(url).await {
        return Ok(records.to_vec());
    }
    let allowance = core.settings.fetches_per_account_per_minute;
    core.throttle
        .take(&[(Key::Fetches(account), allowance)])
        .await
        .map(drop)
        .map_err(|r| {
            ApiError::too_many_requests(
                ErrorCode::FetchRateLimited,
                format!("At most {allowance} outside addresses a minute; please wait a moment"),
                r.retry_after_secs,
            )
            .param("max", allowance)
        })?;
    let body = core.fetcher.get(url).await?;
    let value: Json = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad_request(
            ErrorCode::FetchNotJson,
            format!("The answer is not JSON: {e}"),
        )
    })?;
    let records = match value {
        Json::Array(a) => Some(a),
        Json::Object(mut o) => match o.remove("data") {
            Some(Json::Array(a)) => Some(a),
            _ => None,
        },
        _ => None,
    }
    .ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::FetchNotList,
            "The answer is neither a list nor an object with a data list",
        )
    })?;
    let records: Vec<Json> = records.into_iter().take(MAX_EXTERNAL_RECORDS).collect();
    answers
        .0
        .insert(url.to_owned(), Arc::from(records.as_slice()))
        .await;
    Ok(records)
}
