//! `vitrine-control seed`: the demo account, the administrator, the templates and the block
//! library. Safe to run again: existing accounts are kept, templates, categories and blocks are
//! updated in place (blocks by uid, `{category key}/{file stem}`).
//!
//! The library (`seed/blocks/`, see `docs/blocks.md`) is embedded with `include_dir`, a
//! well-kept crate that compiles a directory tree into the binary, so a release needs no extra
//! files; each file is TOML, read with the `toml` crate.

use include_dir::{Dir, include_dir};
use serde::Deserialize;
use serde_json::Value;
use vitrine_shared::{
    blocks::split_x_vars,
    domain::{Email, PreviewSlug},
    render::{Block, CompiledPage, RenderContext},
    snapshot::TemplateFile,
    store::{BlockInput, CategoryInput, NewProject, NewUser, TemplateInfo, User},
};

use crate::{auth, routes::projects::new_identity, state::AppState};

/// The shipped templates, compiled into the binary so a release needs no extra files.
pub const TEMPLATE_FILES: &[(&str, &str)] = &[
    ("business", include_str!("../seed/templates/business.json")),
    (
        "portfolio",
        include_str!("../seed/templates/portfolio.json"),
    ),
    ("blog", include_str!("../seed/templates/blog.json")),
];

static BLOCKS: Dir = include_dir!("$CARGO_MANIFEST_DIR/seed/blocks");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CategoryFile {
    name: String,
    order: i64,
    #[serde(default)]
    icon: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockFile {
    name: String,
    order: i64,
    #[serde(default)]
    keywords: String,
    template: String,
    #[serde(default)]
    css: String,
    #[serde(default)]
    js: String,
}

/// A seeded category with its blocks.
#[derive(Debug)]
pub struct SeedCategory {
    pub key: String,
    pub name: String,
    pub order: i64,
    pub icon: String,
    pub blocks: Vec<SeedBlock>,
}

/// A seeded block, checked: its `x-vars` parse and its template compiles and renders with
/// its own default values.
#[derive(Debug)]
pub struct SeedBlock {
    pub uid: String,
    pub name: String,
    pub order: i64,
    pub keywords: String,
    pub template: String,
    pub css: String,
    pub js: String,
}

/// Reads and checks the embedded block library, categories in directory order.
pub fn parse_library() -> anyhow::Result<Vec<SeedCategory>> {
    let mut dirs: Vec<&Dir> = BLOCKS.dirs().collect();
    dirs.sort_by_key(|d| d.path().to_path_buf());
    let mut out = Vec::new();
    for dir in dirs {
        let dir_name = dir
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let key = dir_name
            .split_once('-')
            .map(|(_, k)| k)
            .unwrap_or(dir_name)
            .to_string();
        let category_path = dir.path().join("category.toml");
        let raw = dir
            .get_file(&category_path)
            .and_then(|f| f.contents_utf8())
            .ok_or_else(|| anyhow::anyhow!("{dir_name}: category.toml is missing"))?;
        let category: CategoryFile =
            toml::from_str(raw).map_err(|e| anyhow::anyhow!("{dir_name}/category.toml: {e}"))?;
        let mut files: Vec<_> = dir
            .files()
            .filter(|f| {
                f.path().extension().is_some_and(|e| e == "toml") && f.path() != category_path
            })
            .collect();
        files.sort_by_key(|f| f.path().to_path_buf());
        let mut blocks = Vec::new();
        for f in files {
            let path = f.path().display().to_string();
            let stem = f
                .path()
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let raw = f
                .contents_utf8()
                .ok_or_else(|| anyhow::anyhow!("{path}: not UTF-8"))?;
            let b: BlockFile = toml::from_str(raw).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            check_seed_block(&b).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            blocks.push(SeedBlock {
                uid: format!("{key}/{stem}"),
                name: b.name,
                order: b.order,
                keywords: b.keywords,
                template: b.template,
                css: b.css,
                js: b.js,
            });
        }
        out.push(SeedCategory {
            key,
            name: category.name,
            order: category.order,
            icon: category.icon,
            blocks,
        });
    }
    Ok(out)
}

/// A library block must parse and render with its defaults, as the editor will insert it.
fn check_seed_block(b: &BlockFile) -> Result<(), String> {
    let (template, vars) = split_x_vars(&b.template)?;
    let block = Block {
        uid: "seed".into(),
        name: b.name.clone(),
        template,
        vars,
        ..Block::default()
    };
    CompiledPage::compile(std::slice::from_ref(&block))
        .and_then(|c| c.render(&RenderContext::default()))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

async fn seed_library(state: &AppState) -> anyhow::Result<usize> {
    let mut count = 0;
    for c in parse_library()? {
        let category_id = state
            .store
            .seed_block_category(&CategoryInput {
                seed_key: Some(&c.key),
                name: &c.name,
                icon: &c.icon,
                sort_order: c.order,
            })
            .await?;
        for b in &c.blocks {
            state
                .store
                .seed_library_block(&BlockInput {
                    uid: Some(&b.uid),
                    name: &b.name,
                    category_id: Some(category_id),
                    image: "",
                    keywords: &b.keywords,
                    template: &b.template,
                    css: &b.css,
                    js: &b.js,
                    sort_order: Some(b.order),
                })
                .await
                .map_err(|e| anyhow::anyhow!("block {}: {e}", b.uid))?;
            count += 1;
        }
    }
    Ok(count)
}

/// What the seed did, for printing.
#[derive(Debug)]
pub struct SeedReport {
    pub templates: usize,
    pub blocks: usize,
    pub demo: Option<(String, String)>,
    pub admin: (String, Option<String>),
}

pub fn parse_templates() -> anyhow::Result<Vec<TemplateFile>> {
    TEMPLATE_FILES
        .iter()
        .map(|(name, raw)| {
            let t: TemplateFile =
                serde_json::from_str(raw).map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            t.snapshot
                .check()
                .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            Ok(t)
        })
        .collect()
}

async fn ensure_user(
    state: &AppState,
    name: &str,
    email: &str,
    password: &str,
    admin: bool,
) -> anyhow::Result<(User, bool)> {
    let email = Email::parse(email).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(u) = state.store.user_by_email(email.as_str()).await? {
        return Ok((u, false));
    }
    let hash = auth::hash_password(password.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let user = state
        .store
        .insert_user(&NewUser {
            name,
            email: email.as_str(),
            password_hash: &hash,
            language: "pt-BR",
            is_admin: false,
        })
        .await?;
    if admin {
        state.store.set_user_flags(user.id, true, false).await?;
    }
    Ok((user, true))
}

pub async fn run(state: &AppState) -> anyhow::Result<SeedReport> {
    let templates = parse_templates()?;
    for t in &templates {
        let info = TemplateInfo {
            name: &t.name,
            description: &t.description,
            category: &t.category,
            sort_order: t.order,
        };
        state.store.upsert_template(&info, &t.snapshot).await?;
    }
    let blocks = seed_library(state).await?;

    let s = &state.settings;
    let admin_password = s.admin_password.as_ref().map(|p| p.expose().to_string());
    let generated = admin_password.is_none().then(auth::new_token);
    let (_, admin_created) = ensure_user(
        state,
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
                ensure_user(state, "Conta Demo", email, password.expose(), false).await?;
            if created && let Some(first) = templates.first() {
                // A demo account starts with one site made from the first template.
                let slug = state
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
                state
                    .store
                    .insert_project_from_snapshot(&new, &first.snapshot)
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_block_library_parses_and_every_block_renders_with_its_defaults() {
        let library = super::parse_library().unwrap();
        let blocks: usize = library.iter().map(|c| c.blocks.len()).sum();
        assert!(library.len() >= 8, "{} categories", library.len());
        assert!(blocks >= 40, "{blocks} blocks");
        assert_eq!(library[0].key, "elements");
        for key in [
            "hero",
            "features",
            "text",
            "gallery",
            "pricing",
            "testimonials",
            "contact",
            "footer",
            "collection-list",
            "collection-item",
        ] {
            let c = library
                .iter()
                .find(|c| c.key == key)
                .unwrap_or_else(|| panic!("{key}"));
            assert!(!c.blocks.is_empty(), "{key} has blocks");
        }
        let mut names = std::collections::HashSet::new();
        for b in library.iter().flat_map(|c| &c.blocks) {
            assert!(names.insert(b.name.to_lowercase()), "{} twice", b.name);
        }
    }

    #[test]
    fn shipped_templates_parse_and_are_consistent() {
        let templates = super::parse_templates().unwrap();
        assert_eq!(templates.len(), 3);
        for t in &templates {
            assert!(
                t.snapshot.pages.iter().any(|p| p.slug == "/"),
                "{} has a home page",
                t.name
            );
            assert!(
                t.snapshot.pages.iter().all(|p| !p.output.trim().is_empty()),
                "{} pages have content",
                t.name
            );
        }
        assert!(
            templates
                .iter()
                .any(|t| !t.snapshot.tables.is_empty() && !t.snapshot.tables[0].posts.is_empty())
        );
    }
}
