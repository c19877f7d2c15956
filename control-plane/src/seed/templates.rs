//! The shipped templates (`control-plane/seed/templates/*.json`): pages built from library
//! blocks by reference, expanded as the editor inserts them, their header and footer lifted
//! into the shared sections, and every page rendered with the template's own records.

use std::collections::HashMap;

use serde_json::Value;
use vitrine_shared::{
    blocks::split_x_vars,
    ids::LibraryBlockId,
    sections::SectionKind,
    snapshot::{Snapshot, TemplateFile},
};

use super::library::{SeedBlock, SeedCategory};

/// The shipped templates, compiled into the binary so a release needs no extra files.
pub const TEMPLATE_FILES: &[(&str, &str)] = &[
    (
        "business",
        include_str!("../../seed/templates/business.json"),
    ),
    (
        "portfolio",
        include_str!("../../seed/templates/portfolio.json"),
    ),
    ("blog", include_str!("../../seed/templates/blog.json")),
];

/// Reads the shipped templates, with their library references expanded (see
/// [`expand_template`]); `ids` gives the library blocks' database ids by uid, when seeded.
pub fn parse_templates(
    library: &[SeedCategory],
    ids: &HashMap<String, LibraryBlockId>,
) -> anyhow::Result<Vec<TemplateFile>> {
    TEMPLATE_FILES
        .iter()
        .map(|(name, raw)| {
            let raw = super::images::link_images(raw)
                .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            let mut t: TemplateFile =
                serde_json::from_str(&raw).map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            expand_template(&mut t, library, ids)
                .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            t.snapshot
                .check()
                .map_err(|e| anyhow::anyhow!("template {name}: {e}"))?;
            Ok(t)
        })
        .collect()
}

/// One page of a shipped template as the renderer gets it.
pub struct TemplatePage {
    pub template: String,
    pub page: String,
    /// The shared sections around the page's own blocks.
    pub blocks: Vec<vitrine_shared::render::Block>,
    /// The page's context with the template's own records.
    pub ctx: vitrine_shared::render::RenderContext,
}

/// Every page of the shipped templates, as a site made from them renders it: what the render
/// CPU budget (`RENDER_CPU_MS`) is measured on and must hold with a margin
/// (`benches/benches/render_cpu.rs`, and the fair-shares tests).
pub fn template_pages() -> anyhow::Result<Vec<TemplatePage>> {
    let library = super::parse_library()?;
    let mut out = Vec::new();
    for t in parse_templates(&library, &HashMap::new())? {
        for page in &t.snapshot.pages {
            let blocks = t.snapshot.sections.page_blocks(&page.blocks, &page.meta);
            let ctx = crate::rendering::snapshot_context(&t.snapshot, page, &blocks);
            out.push(TemplatePage {
                template: t.name.clone(),
                page: page.slug.clone(),
                blocks,
                ctx,
            });
        }
    }
    Ok(out)
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
    ids: &HashMap<String, LibraryBlockId>,
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
            let (template, mut vars) = split_x_vars(&source.content.template)
                .map_err(|e| format!("library block {uid}: {e}"))?;
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
                "name": source.content.name,
                "template": template,
                "css": source.content.css,
                "js": source.content.js,
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
            crate::rendering::render_snapshot_page(&t.snapshot, p, &blocks)
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

#[cfg(test)]
mod tests {
    #[test]
    fn shipped_templates_are_built_from_library_blocks_and_render() {
        let library = crate::seed::parse_library().unwrap();
        let ids = library
            .iter()
            .flat_map(|c| &c.blocks)
            .enumerate()
            .map(|(i, b)| {
                (
                    b.uid.clone(),
                    vitrine_shared::ids::LibraryBlockId::new(i as i64 + 1),
                )
            })
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
        let library = crate::seed::parse_library().unwrap();
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
        // Every product has its photo, on the grids and on its own page.
        let photo = |name: &str| {
            let (_, bytes) = crate::seed::images()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("{name} is shipped"));
            format!("src=\"/files/{}\"", crate::seed::image_key(name, bytes)).replace('/', "&#x2f;")
        };
        for name in [
            "pao-de-queijo.jpg",
            "pao-de-fermentacao-natural.jpg",
            "bolo-de-fuba-com-goiabada.jpg",
            "croissant-de-manteiga.jpg",
            "cesta-de-cafe-da-manha.jpg",
        ] {
            assert!(catalogue.contains(&photo(name)), "{name}: {catalogue}");
        }
        assert!(home.contains(&photo("pao-de-queijo.jpg")), "{home}");
        let product = output("produto");
        assert!(
            product.contains("<img src=\"&#x2f;files&#x2f;uploads&#x2f;templates&#x2f;"),
            "{product}"
        );
    }

    #[test]
    fn a_template_naming_a_missing_block_or_field_is_refused() {
        let library = crate::seed::parse_library().unwrap();
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
