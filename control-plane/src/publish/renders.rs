//! A memo of the page renders publishing asks of the render sandbox, so that a republish does
//! not start a worker process for a page whose render it has already seen.
//!
//! The sandbox starts one worker process per render (`vitrine_shared::sandbox`), a few
//! milliseconds each: for a 10-page site that alone was over the 20 ms a no-change republish
//! may take (issue 23). A memo is exact here, not a guess from a fingerprint: the key is the
//! SHA-256 of the whole job the worker would read (the blocks, with their upload links and
//! fetched API records already in them, and the context: site, page, language, page paths,
//! menu), and a worker's answer is a function of that job alone: it runs with an empty
//! environment and no files, and the template engine has no clock or randomness. Anything
//! that changes what a page shows changes the job, so it misses the memo and renders.
//!
//! The memo lives in this process only (a new binary, perhaps with a new renderer, starts
//! empty), holds successful renders only (a failure is asked of the sandbox again), and is
//! bounded by the bytes of HTML it holds.

use std::sync::Arc;

use sha2::{Digest, Sha256};
use vitrine_shared::{
    render::{Block, RenderContext},
    sandbox::{Sandbox, SandboxError, Share},
};

/// How many bytes of rendered HTML the memo keeps: about 2,000 pages of 15 KB, enough for the
/// sites published in the last minutes on a busy node.
const MEMO_BYTES: u64 = 32 * 1024 * 1024;

/// Rendered pages by the hash of their job (see the module docs).
pub struct Renders {
    memo: moka::future::Cache<[u8; 32], Arc<str>>,
}

impl Default for Renders {
    fn default() -> Self {
        Renders {
            memo: moka::future::Cache::builder()
                .max_capacity(MEMO_BYTES)
                .weigher(|_, html: &Arc<str>| u32::try_from(html.len()).unwrap_or(u32::MAX))
                .build(),
        }
    }
}

impl Renders {
    /// The page as [`Sandbox::page`] renders it, from the memo when this exact job was
    /// rendered before.
    pub async fn page(
        &self,
        sandbox: &Sandbox,
        share: Share,
        blocks: &[Block],
        ctx: &RenderContext,
    ) -> Result<String, SandboxError> {
        let Some(key) = job_key(blocks, ctx) else {
            return sandbox.page(share, blocks, ctx).await;
        };
        if let Some(html) = self.memo.get(&key).await {
            return Ok(html.to_string());
        }
        let html = sandbox.page(share, blocks, ctx).await?;
        self.memo.insert(key, Arc::from(html.as_str())).await;
        Ok(html)
    }
}

/// The hash of everything a worker reads for this render.
fn job_key(blocks: &[Block], ctx: &RenderContext) -> Option<[u8; 32]> {
    let job = serde_json::to_vec(&(blocks, ctx)).ok()?;
    Some(Sha256::digest(job).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::ids::AccountId;

    #[test]
    fn any_change_to_the_blocks_or_the_context_is_another_job() {
        let blocks = vec![Block {
            uid: "a".into(),
            template: "<p>{{ site.menu }}</p>".into(),
            ..Block::default()
        }];
        let ctx = RenderContext {
            page_slug: "sobre".into(),
            menu: Some(vec![vitrine_shared::sections::MenuItem {
                name: "Início".into(),
                url: "/".into(),
            }]),
            ..RenderContext::default()
        };
        let key = job_key(&blocks, &ctx).unwrap();
        assert_eq!(job_key(&blocks.clone(), &ctx.clone()), Some(key));
        let mut renamed = ctx.clone();
        renamed.menu.as_mut().unwrap()[0].name = "Home".into();
        assert_ne!(job_key(&blocks, &renamed), Some(key));
        let mut edited = blocks.clone();
        edited[0].css = "p{}".into();
        assert_ne!(job_key(&edited, &ctx), Some(key));
        let mut other_page = ctx;
        other_page.page_slug = "contato".into();
        assert_ne!(job_key(&blocks, &other_page), Some(key));
    }

    #[tokio::test]
    async fn a_job_seen_before_starts_no_worker_and_a_failure_is_not_kept() {
        // A sandbox whose worker cannot start: only the memo can answer.
        let sandbox = Sandbox::from_settings(&vitrine_shared::Settings {
            render_worker: Some("/nonexistent/render-worker".into()),
            ..Default::default()
        });
        let renders = Renders::default();
        let share = Share::publish(vitrine_shared::account::Account::User(AccountId(1)));
        let blocks = vec![Block {
            uid: "a".into(),
            template: "<p>{{ page.name }}</p>".into(),
            ..Block::default()
        }];
        let ctx = RenderContext::default();
        let fails = |r: Result<String, SandboxError>| matches!(r, Err(SandboxError::Broken(_)));
        assert!(fails(renders.page(&sandbox, share, &blocks, &ctx).await));
        assert!(
            fails(renders.page(&sandbox, share, &blocks, &ctx).await),
            "a failed render is asked of the sandbox again"
        );
        let key = job_key(&blocks, &ctx).unwrap();
        renders.memo.insert(key, Arc::from("<p>Início</p>")).await;
        assert_eq!(
            renders.page(&sandbox, share, &blocks, &ctx).await.unwrap(),
            "<p>Início</p>"
        );
        let other = RenderContext {
            page_name: "Sobre".into(),
            ..RenderContext::default()
        };
        assert!(fails(renders.page(&sandbox, share, &blocks, &other).await));
    }
}
