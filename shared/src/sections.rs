//! Shared sections (like Webflow Symbols): a project's global header and footer, each one
//! block stored once with its values (`store::sections`) and shown on every page, above and
//! below the page's own blocks, unless the page opts out in its meta (`hideHeader`,
//! `hideFooter`). Publishing, the edge (collection pages and pages with live lists, whose
//! blocks the manifest carries with the sections already in place), the owner's preview and
//! the editor's canvas all assemble a page with [`Sections::page_blocks`], so they agree.
//!
//! The site menu: [`menu`] lists the project's pages a menu block links to (static pages,
//! the home page first, without the error pages and without pages whose meta sets
//! `hideInMenu`). Templates read it as `site.menu`, a list of `{name, url, current}`, so a new
//! page shows in a header built from it with no edit.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::domain::normalize_page_slug;
use crate::render::Block;
pub use crate::render::MenuItem;

/// Page meta key: the page leaves the site menu out (`site.menu`).
pub const HIDE_IN_MENU: &str = "hideInMenu";

/// Which shared section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SectionKind {
    Header,
    Footer,
}

impl SectionKind {
    pub const ALL: [SectionKind; 2] = [SectionKind::Header, SectionKind::Footer];

    /// The stored name (`header`, `footer`).
    pub fn as_str(self) -> &'static str {
        match self {
            SectionKind::Header => "header",
            SectionKind::Footer => "footer",
        }
    }

    pub fn parse(s: &str) -> Option<SectionKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The page meta key with which a page opts out of this section.
    pub fn opt_out_key(self) -> &'static str {
        match self {
            SectionKind::Header => "hideHeader",
            SectionKind::Footer => "hideFooter",
        }
    }

    /// The uid the section's block always has (so it never clashes with a page block's, and
    /// its database-fed lists have a key of their own).
    pub fn uid(self) -> &'static str {
        match self {
            SectionKind::Header => "global-header",
            SectionKind::Footer => "global-footer",
        }
    }
}

/// A project's shared sections: each the page-block JSON the editor edits, or none.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Sections {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub header: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub footer: Option<Value>,
}

fn flag(meta: &Value, key: &str) -> bool {
    meta.get(key).and_then(Value::as_bool).unwrap_or(false)
}

impl Sections {
    pub fn get(&self, kind: SectionKind) -> Option<&Value> {
        match kind {
            SectionKind::Header => self.header.as_ref(),
            SectionKind::Footer => self.footer.as_ref(),
        }
    }

    pub fn set(&mut self, kind: SectionKind, block: Option<Value>) {
        match kind {
            SectionKind::Header => self.header = block,
            SectionKind::Footer => self.footer = block,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.header.is_none() && self.footer.is_none()
    }

    /// The section's block as a page with `page_meta` shows it: none when the project has no
    /// such section, when the page opts out, or when the stored block cannot be read.
    pub fn shown(&self, kind: SectionKind, page_meta: &Value) -> Option<Block> {
        if flag(page_meta, kind.opt_out_key()) {
            return None;
        }
        let mut block: Block = serde_json::from_value(self.get(kind)?.clone()).ok()?;
        block.uid = kind.uid().to_string();
        Some(block)
    }

    /// A page's blocks as visitors see them: the header, the page's own blocks, the footer.
    pub fn page_blocks(&self, page_blocks: &Value, page_meta: &Value) -> Vec<Block> {
        let mut out = Vec::new();
        out.extend(self.shown(SectionKind::Header, page_meta));
        out.extend(Block::list(page_blocks));
        out.extend(self.shown(SectionKind::Footer, page_meta));
        out
    }
}

/// A page as the menu needs it.
pub struct MenuPage<'a> {
    pub name: &'a str,
    pub slug: &'a str,
    pub is_collection: bool,
    pub meta: &'a Value,
}

/// The site menu: static pages in the order given (the store lists the home page first), the
/// error pages (`404`, `500`) and pages whose meta sets `hideInMenu` left out.
pub fn menu<'a>(pages: impl IntoIterator<Item = MenuPage<'a>>) -> Vec<MenuItem> {
    pages
        .into_iter()
        .filter(|p| !p.is_collection && !flag(p.meta, HIDE_IN_MENU))
        .filter_map(|p| {
            let slug = normalize_page_slug(p.slug);
            if slug == "404" || slug == "500" {
                return None;
            }
            let url = if slug == "/" {
                "/".to_string()
            } else {
                format!("/{slug}")
            };
            Some(MenuItem {
                name: p.name.to_string(),
                url,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_page_shows_the_sections_around_its_blocks_unless_it_opts_out() {
        let sections = Sections {
            header: Some(
                json!({"uid": "h1", "name": "Cabeçalho", "template": "<header></header>"}),
            ),
            footer: Some(json!({"uid": "f", "template": "<footer></footer>"})),
        };
        let page = json!([{"uid": "a", "template": "<p>a</p>"}]);
        let uids = |blocks: Vec<Block>| blocks.into_iter().map(|b| b.uid).collect::<Vec<_>>();
        assert_eq!(
            uids(sections.page_blocks(&page, &json!({}))),
            ["global-header", "a", "global-footer"]
        );
        assert_eq!(
            uids(sections.page_blocks(&page, &json!({"hideHeader": true}))),
            ["a", "global-footer"]
        );
        assert_eq!(
            uids(sections.page_blocks(&page, &json!({"hideFooter": true, "hideHeader": false}))),
            ["global-header", "a"]
        );
        assert_eq!(
            uids(Sections::default().page_blocks(&page, &json!({}))),
            ["a"]
        );
    }

    #[test]
    fn the_menu_lists_static_pages_but_not_error_pages_or_opted_out_ones() {
        let (none, hidden) = (json!({}), json!({"hideInMenu": true}));
        let page = |name, slug, is_collection, meta| MenuPage {
            name,
            slug,
            is_collection,
            meta,
        };
        let items = menu([
            page("Início", "/", false, &none),
            page("Sobre nós", "sobre", false, &none),
            page("Blog", "blog", true, &none),
            page("Obrigado", "obrigado", false, &hidden),
            page("Não encontrada", "404", false, &none),
            page("Contato", "/contato/", false, &none),
        ]);
        let got: Vec<(&str, &str)> = items
            .iter()
            .map(|i| (i.name.as_str(), i.url.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("Início", "/"),
                ("Sobre nós", "/sobre"),
                ("Contato", "/contato")
            ]
        );
    }

    #[test]
    fn templates_read_the_menu_with_the_current_page_marked() {
        use crate::render::{CompiledPage, RenderContext};
        let block = Block {
            uid: "nav".into(),
            template: "{% for m in site.menu %}<a href=\"{{ m.url }}\"{% if m.current %} aria-current=\"page\"{% endif %}>{{ m.name }}</a>{% endfor %}".into(),
            ..Block::default()
        };
        let item = |name: &str, url: &str| MenuItem {
            name: name.into(),
            url: url.into(),
        };
        let page = CompiledPage::compile(&[block]).unwrap();
        let mut ctx = RenderContext {
            page_slug: "sobre".into(),
            menu: Some(vec![item("Início", "/"), item("Sobre & nós", "/sobre")]),
            ..RenderContext::default()
        };
        assert_eq!(
            page.render(&ctx).unwrap(),
            "<a href=\"&#x2f;\">Início</a><a href=\"&#x2f;sobre\" aria-current=\"page\">Sobre &amp; nós</a>"
        );
        ctx.page_slug = "/".into();
        assert!(
            page.render(&ctx)
                .unwrap()
                .starts_with("<a href=\"&#x2f;\" aria-current")
        );
        // Unknown menu: the loop runs over nothing.
        ctx.menu = None;
        assert_eq!(page.render(&ctx).unwrap(), "");
    }
}
