//! `vitrine-control seed`: the demo account, the administrator, the templates and the block
//! library. Safe to run again: existing accounts are kept, templates, categories and blocks are
//! updated in place (blocks by uid, `{category key}/{file stem}`).
//!
//! Reading what is shipped is the submodules': `library` (the block library, `seed/blocks/`),
//! `templates` (`seed/templates/`) and `images` (the templates' pictures, `seed/images/`);
//! this module writes them and the accounts.

use std::collections::HashMap;

use serde_json::Value;
use vitrine_shared::{
    domain::{Email, PreviewSlug},
    ids::LibraryBlockId,
    language::Language,
    store::{BlockInput, CategoryInput, NewProject, NewUser, TemplateInfo, User},
};

use crate::{accounts::auth, base::Core, projects::new_identity};

#[cfg(test)]
mod checks;
mod images;
mod library;
mod templates;

pub use images::{TEMPLATE_PREFIX, image_key, images};
pub use library::{SeedBlock, SeedCategory, parse_library};
pub use templates::{
    TEMPLATE_FILES, TemplatePage, expand_template, parse_templates, template_pages,
};

/// Seeds the library; returns the blocks' database ids by uid.
async fn seed_library(
    core: &Core,
    library: &[SeedCategory],
) -> anyhow::Result<HashMap<String, LibraryBlockId>> {
    let mut ids = HashMap::new();
    for c in library {
        let category_id = core
            .store
            .seed_block_category(&CategoryInput {
                seed_key: Some(&c.key),
                name: &c.name,
                icon: &c.icon,
                sort_order: c.order,
            })
            .await?;
        for b in &c.blocks {
            let id = core
                .store
                .seed_library_block(&BlockInput {
                    uid: Some(&b.uid),
                    content: &b.content,
                    category_id: Some(category_id),
                    sort_order: Some(b.order),
                })
                .await
                .map_err(|e| anyhow::anyhow!("block {}: {e}", b.uid))?;
            ids.insert(b.uid.clone(), id);
        }
    }
    Ok(ids)
}

/// What the seed did, for printing.
#[derive(Debug)]
pub struct SeedReport {
    pub templates: usize,
    pub blocks: usize,
    pub demo: Option<(String, String)>,
    pub admin: (String, Option<String>),
}

async fn ensure_user(
    core: &Core,
    name: &str,
    email: &str,
    password: &str,
    admin: bool,
) -> anyhow::Result<(User, bool)> {
    let email = Email::parse(email).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(u) = core.store.user_by_email(email.as_str()).await? {
        return Ok((u, false));
    }
    let hash = auth::hash_password(password.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let user = core
        .store
        .insert_user(&NewUser {
            name,
            email: email.as_str(),
            password_hash: &hash,
            language: Language::PtBr,
            is_admin: false,
        })
        .await?;
    if admin {
        core.store.set_user_flags(user.id, true, false).await?;
    }
    // The operator chose these addresses (demo and administrator settings): their form
    // notifications go out without a confirmation link.
    core.store.mark_email_confirmed(user.id).await?;
    let user = core.store.user_by_id(user.id).await?;
    Ok((user, true))
}

pub async fn run(core: &Core) -> anyhow::Result<SeedReport> {
    let library = parse_library()?;
    let ids = seed_library(core, &library).await?;
    let blocks = ids.len();
    let templates = parse_templates(&library, &ids)?;
    // The pictures the templates' records name are in the object store before any site
    // made from them is.
    images::store_images(core).await?;
    for t in &templates {
        let info = TemplateInfo {
            name: &t.name,
            description: &t.description,
            category: &t.category,
            sort_order: t.order,
        };
        core.store.upsert_template(&info, &t.snapshot).await?;
    }

    let s = &core.settings;
    let admin_password = s.admin_password.as_ref().map(|p| p.expose().to_string());
    let generated = admin_password.is_none().then(auth::new_token);
    let (_, admin_created) = ensure_user(
        core,
        "Administrador",
        &s.admin_email,
        admin_password
            .as_deref()
            .or(generated.as_deref())
            .unwrap_or_default(),
        true,
    )
    .await?;
    let admin = (
        s.admin_email.clone(),
        if admin_created {
            admin_password.or(generated)
        } else {
            None
        },
    );

    let demo = match (&s.demo_email, &s.demo_password) {
        (Some(email), Some(password)) => {
            let (user, created) =
                ensure_user(core, "Conta Demo", email, password.expose(), false).await?;
            if created && let Some(first) = templates.first() {
                // A demo account starts with one site made from the first template.
                let slug = core
                    .store
                    .free_project_slug(PreviewSlug::from_name("demo").as_str())
                    .await?;
                let (token, uuid) = new_identity();
                let new = NewProject {
                    user_id: user.id,
                    name: &first.name,
                    slug: &slug,
                    token: &token,
                    uuid: &uuid,
                    meta: Value::Null,
                };
                core.store
                    .insert_project_from_snapshot(&new, &first.snapshot, u64::MAX)
                    .await?;
            }
            Some((email.clone(), password.expose().to_string()))
        }
        _ => None,
    };
    Ok(SeedReport {
        templates: templates.len(),
        blocks,
        demo,
        admin,
    })
}
