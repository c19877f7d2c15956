//! `vitrine-control seed`: the demo account, the administrator, the templates and the block
//! library. Safe to run again: existing accounts are kept, templates, categories and blocks are
//! updated in place (blocks by uid, `{category key}/{file stem}`).
//!
//! The library (`seed/blocks/`, see `docs/blocks.md`) is embedded with `include_dir`, a
//! well-kept crate that compiles a directory tree into the binary, so a release needs no extra
//! files; each file is TOML, read with the `toml` crate.

use std::collections::HashMap;

use include_dir::{Dir, include_dir};
use serde::Deserialize;
use serde_json::Value;
use vitrine_shared::{
    blocks::split_x_vars,
    domain::{Email, PreviewSlug},
    render::{Block, CompiledPage, RenderContext},
    sections::SectionKind,
    snapshot::{Snapshot, TemplateFile},
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

/// Seeds the library; returns the blocks' database ids by uid.
async fn seed_library(
    state: &AppState,
    library: &[SeedCategory],
) -> anyhow::Result<HashMap<String, i64>> {
    let mut ids = HashMap::new();
    for c in library {
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
            let id = state
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

/// Reads the shipped templates, with their library references expanded (see
/// [`expand_template`]); `ids` gives the library blocks' database ids by uid, when seeded.
pub fn parse_templates(
    library: &[SeedCategory],
    ids: &HashMap<String, i64>,
) -> anyhow::Result<Vec<TemplateFile>> {
    TEMPLATE_FILES
        .iter()
        .map(|(name, raw)| {
            let mut t: TemplateFile =
                serde_json::from_str(raw).map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            expand_template(&mut t, library, ids)
                .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            t.snapshot
                .check()
                .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            Ok(t)
        })
        .collect()
}

/// A template page's block may name a library block instead of carrying its code:
/// `{"library": "hero/00-hero-centralizado", "vars": {"title": "…"}, "effect": "fade-in"}`.
/// It becomes the page block the editor would insert (the library block's template without
/// its `x-vars`, its CSS and JS, its definitions with these values over the defaults, and
/// `block_id`), so pages made from a template are edited field by field. Then every page's
/// `output` is rendered by the shared renderer with the template's own records.
pub fn expand_template(
    t: &mut TemplateFile,
    library: &[SeedCategory],
    ids: &HashMap<String, i64>,
) -> Result<(), String> {
    let by_uid: HashMap<&str, &SeedBlock> = library
        .iter()
        .flat_map(|c| &c.blocks)
        .map(|b| (b.uid.as_str(), b))
        .collect();
    for page in &mut t.snapshot.pages {
        let Some(blocks) = page.blocks.as_array_mut() else {
            return Err(format!("page {:?}: blocks is not a list", page.slug));
        };
        for (i, block) in blocks.iter_mut().enumerate() {
            let Some(uid) = block.get("library").and_then(Value::as_str) else {
                continue;
            };
            let source = by_uid
                .get(uid)
                .ok_or_else(|| format!("page {:?}: no library block {uid:?}", page.slug))?;
            let (template, mut vars) =
                split_x_vars(&source.template).map_err(|e| format!("library block {uid}: {e}"))?;
            let values = block
                .get("vars")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            for (name, value) in values {
                let def = vars
                    .iter_mut()
                    .find(|d| d.get("name").and_then(Value::as_str) == Some(name.as_str()))
                    .ok_or_else(|| format!("page {:?}: {uid} has no field {name:?}", page.slug))?;
                def["value"] = value;
            }
            // Other keys of a list definition (its data source, say) may be set too.
            if let Some(sources) = block.get("sources").and_then(Value::as_object) {
                for (name, settings) in sources {
                    let def = vars
                        .iter_mut()
                        .find(|d| d.get("name").and_then(Value::as_str) == Some(name.as_str()))
                        .ok_or_else(|| {
                            format!("page {:?}: {uid} has no field {name:?}", page.slug)
                        })?;
                    for (k, v) in settings.as_object().into_iter().flatten() {
                        def[k] = v.clone();
                    }
                }
            }
            let mut expanded = serde_json::json!({
                "uid": format!("{}-{i}", uid.replace('/', "-")),
                "block_id": ids.get(uid),
                "name": source.name,
                "template": template,
                "css": source.css,
                "js": source.js,
                "vars": vars,
            });
            if let Some(effect) = block.get("effect") {
                expanded["effect"] = effect.clone();
            }
            *block = expanded;
        }
    }
    lift_sections(&mut t.snapshot);
    let rendered: Vec<String> = t
        .snapshot
        .pages
        .iter()
        .map(|p| {
            let blocks = t.snapshot.sections.page_blocks(&p.blocks, &p.meta);
            crate::routes::templates::render_snapshot_page(&t.snapshot, p, &blocks)
                .map(|(_, body)| body)
                .map_err(|e| format!("page {:?}: {e}", p.slug))
        })
        .collect::<Result<_, _>>()?;
    for (page, output) in t.snapshot.pages.iter_mut().zip(rendered) {
        page.output = output;
    }
    Ok(())
}

/// A template's header and footer become the shared sections of the projects made from it
/// (`vitrine_shared::sections`): the home page's first block when it is a library header
/// (`header/…`) and its last when it is a library footer (`footer/…`), taken off every page
/// that starts (or ends) with the same block, so the owner edits them once.
fn lift_sections(snapshot: &mut Snapshot) {
    for kind in SectionKind::ALL {
        let edge = |blocks: &[Value]| -> Option<usize> {
            match kind {
                SectionKind::Header => (!blocks.is_empty()).then_some(0),
                SectionKind::Footer => blocks.len().checked_sub(1),
            }
        };
        let prefix = format!("{}-", kind.as_str());
        let Some(mut section) = snapshot
            .pages
            .iter()
            .find(|p| p.slug == "/")
            .and_then(|p| p.blocks.as_array())
            .and_then(|blocks| edge(blocks).map(|i| blocks[i].clone()))
            .filter(|b| b["uid"].as_str().is_some_and(|u| u.starts_with(&prefix)))
        else {
            continue;
        };
        let template = section["template"].clone();
        for page in &mut snapshot.pages {
            if let Some(blocks) = page.blocks.as_array_mut()
                && let Some(i) = edge(blocks)
                && blocks[i]["template"] == template
            {
                blocks.remove(i);
            }
        }
        section["uid"] = Value::from(kind.uid());
        snapshot.sections.set(kind, Some(section));
    }
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
    let library = parse_library()?;
    let ids = seed_library(state, &library).await?;
    let blocks = ids.len();
    let templates = parse_templates(&library, &ids)?;
    for t in &templates {
        let info = TemplateInfo {
            name: &t.name,
            description: &t.description,
            category: &t.category,
            sort_order: t.order,
        };
        state.store.upsert_template(&info, &t.snapshot).await?;
    }

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
    fn shipped_templates_are_built_from_library_blocks_and_render() {
        let library = super::parse_library().unwrap();
        let ids = library
            .iter()
            .flat_map(|c| &c.blocks)
            .enumerate()
            .map(|(i, b)| (b.uid.clone(), i as i64 + 1))
            .collect();
        let templates = super::parse_templates(&library, &ids).unwrap();
        assert_eq!(templates.len(), 3);
        for t in &templates {
            assert!(
                t.snapshot.pages.iter().any(|p| p.slug == "/"),
                "{} has a home page",
                t.name
            );
            // The header and footer are the shared sections, on no page of their own.
            let header = t
                .snapshot
                .sections
                .header
                .as_ref()
                .expect("a shared header");
            let footer = t
                .snapshot
                .sections
                .footer
                .as_ref()
                .expect("a shared footer");
            assert_eq!(header["uid"], "global-header");
            assert_eq!(footer["uid"], "global-footer");
            for p in &t.snapshot.pages {
                assert!(
                    p.blocks
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|b| b["template"] != header["template"]
                            && b["template"] != footer["template"]),
                    "{} {} carries its own header or footer",
                    t.name,
                    p.slug
                );
                assert!(
                    !p.output.trim().is_empty(),
                    "{} {} has content",
                    t.name,
                    p.slug
                );
                let blocks = p.blocks.as_array().unwrap();
                assert!(!blocks.is_empty(), "{} {} has blocks", t.name, p.slug);
                for b in blocks {
                    // Every block is a library block, expanded as the editor inserts one:
                    // its fields are editable and it names where it came from.
                    let id = b["block_id"].as_i64();
                    assert!(
                        id.is_some(),
                        "{} {}: {} is not from the library",
                        t.name,
                        p.slug,
                        b["name"]
                    );
                    assert!(!b["template"].as_str().unwrap().contains("x-vars"));
                    assert!(
                        b["vars"].as_array().is_some_and(|v| !v.is_empty()),
                        "{}",
                        b["name"]
                    );
                }
            }
        }
        assert!(
            templates
                .iter()
                .any(|t| !t.snapshot.tables.is_empty() && !t.snapshot.tables[0].posts.is_empty())
        );
    }

    #[test]
    fn the_bakery_template_lists_its_products_with_prices_and_their_pages() {
        let library = super::parse_library().unwrap();
        let templates = super::parse_templates(&library, &Default::default()).unwrap();
        let bakery = templates
            .iter()
            .find(|t| t.name == "Padaria Grão Dourado")
            .unwrap();
        let output = |slug: &str| {
            &bakery
                .snapshot
                .pages
                .iter()
                .find(|p| p.slug == slug)
                .unwrap()
                .output
        };
        let home = output("/");
        assert!(home.contains("R$ 42,00"), "{home}");
        assert!(!home.contains(">4200<"), "{home}");
        assert!(
            home.contains("href=\"&#x2f;produto&#x2f;pao-de-queijo-canastra\">Ver detalhes"),
            "{home}"
        );
        assert!(
            home.contains("href=\"&#x2f;produtos\" target=\"_self\">Ver catálogo completo"),
            "{home}"
        );
        // The catalogue has no see-all link; the product page shows the formatted price.
        let catalogue = output("produtos");
        assert!(catalogue.contains("R$ 169,00"), "{catalogue}");
        assert!(!catalogue.contains("vt-pd-more"), "{catalogue}");
        assert!(output("produto").contains("R$ "), "{}", output("produto"));
    }

    #[test]
    fn a_template_naming_a_missing_block_or_field_is_refused() {
        let library = super::parse_library().unwrap();
        let ids = Default::default();
        let file = |block: serde_json::Value| -> vitrine_shared::snapshot::TemplateFile {
            serde_json::from_value(serde_json::json!({
                "name": "T", "pages": [{"name": "Início", "slug": "/", "blocks": [block]}]
            }))
            .unwrap()
        };
        let mut ok = file(
            serde_json::json!({"library": "hero/00-hero-centralizado", "vars": {"title": "Olá, Vitória"}}),
        );
        super::expand_template(&mut ok, &library, &ids).unwrap();
        assert!(ok.snapshot.pages[0].output.contains("Olá, Vitória"));
        let mut missing = file(serde_json::json!({"library": "hero/nope"}));
        let e = super::expand_template(&mut missing, &library, &ids).unwrap_err();
        assert!(e.contains("no library block \"hero/nope\""), "{e}");
        let mut unknown = file(
            serde_json::json!({"library": "hero/00-hero-centralizado", "vars": {"titel": "x"}}),
        );
        let e = super::expand_template(&mut unknown, &library, &ids).unwrap_err();
        assert!(e.contains("has no field \"titel\""), "{e}");
    }
}
