//! The block library as shipped (`control-plane/seed/blocks/`, see `docs/blocks.md`): one
//! directory per category holding `category.toml` and one TOML file per block, embedded with
//! `include_dir` (a well-kept crate that compiles a directory tree into the binary, so a
//! release needs no extra files) and read with the `toml` crate. Every block is checked as it
//! is read: its `x-vars` parse and it renders with its own defaults.

use include_dir::{Dir, include_dir};
use serde::Deserialize;
use vitrine_shared::{
    blocks::split_x_vars,
    render::{Block, CompiledPage, RenderContext},
    store::BlockContent,
};

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
    pub order: i64,
    /// What the block is made of (a seeded block has no thumbnail: `image` is empty).
    pub content: BlockContent,
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
                order: b.order,
                content: BlockContent {
                    name: b.name,
                    image: String::new(),
                    keywords: b.keywords,
                    template: b.template,
                    css: b.css,
                    js: b.js,
                },
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
            assert!(
                names.insert(b.content.name.to_lowercase()),
                "{} twice",
                b.content.name
            );
        }
    }
}
