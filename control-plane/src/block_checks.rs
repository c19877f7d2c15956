//! What a block must pass before it is saved anywhere (the global library, a business's
//! library, My Blocks, an import): its name, its code and its search words; and the sort order
//! every library list takes (blocks, categories, templates). The two libraries' saves take the
//! same [`BlockSource`] and check it the same way ([`BlockSource::check`]).
//!
//! Every template that is saved is checked first: its `x-vars` must parse
//! (`x-vars error: …`) and the template must compile, so a broken block never reaches a page.
//! These checks live outside `routes` because several route modules share them.

use serde::Deserialize;
use utoipa::ToSchema;
use vitrine_shared::{blocks::split_x_vars, render::check_template, store::BlockContent};

use crate::error::{ApiError, ErrorCode, Result};

/// Longest template, CSS or JS a block may carry.
const MAX_CODE: usize = 256 * 1024;

pub const NAME_REQUIRED: &str = "Block Name is required";

/// Checks a block's code: sizes, `x-vars`, and that the template compiles.
pub fn check_code(template: &str, css: &str, js: &str) -> Result<()> {
    for (field, code) in [("template", template), ("css", css), ("js", js)] {
        if code.len() > MAX_CODE {
            return Err(ApiError::invalid(
                field,
                ErrorCode::TooLarge,
                format!("{field} is too large (256 KB at most)"),
            )
            .param("kb", 256));
        }
    }
    if template.trim().is_empty() {
        return Err(ApiError::invalid(
            "template",
            ErrorCode::BlockHtmlEmpty,
            "The block's HTML is empty",
        ));
    }
    let (stripped, _) = split_x_vars(template).map_err(x_vars_error)?;
    check_template(&stripped).map_err(|e| {
        ApiError::invalid(
            "template",
            ErrorCode::TemplateInvalid,
            format!("template error: {e}"),
        )
        .param("detail", e.to_string())
    })
}

/// A block's `x-vars` definitions that cannot be read (the parser's words in `detail`).
pub fn x_vars_error(detail: String) -> ApiError {
    ApiError::invalid("template", ErrorCode::XVarsInvalid, detail.clone()).param("detail", detail)
}

/// The trimmed name of a block: required, 200 characters at most.
pub fn block_name(name: Option<&str>) -> Result<String> {
    let name = name.map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::BlockNameRequired,
            NAME_REQUIRED,
        ));
    }
    if name.chars().count() > 200 {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::TooLong,
            "Block Name must be at most 200 characters",
        )
        .param("max", 200));
    }
    Ok(name.to_string())
}

/// A block's comma-separated search words: 1000 bytes at most.
pub fn check_search_words(keywords: &str) -> Result<()> {
    if keywords.len() > 1000 {
        return Err(ApiError::invalid(
            "keywords",
            ErrorCode::TooLong,
            "Keywords are too long",
        ));
    }
    Ok(())
}

/// A place in a library list: 0 to 1000000.
pub fn check_order(order: i64) -> Result<i64> {
    if !(0..=1_000_000).contains(&order) {
        return Err(ApiError::invalid(
            "order",
            ErrorCode::OrderOutOfRange,
            "order must be a number from 0 to 1000000",
        ));
    }
    Ok(order)
}

/// A block as a library save sends it (the global library's, a business's).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct BlockSource {
    pub name: Option<String>,
    /// Thumbnail: an uploaded file (`/files/…`) or an http(s) address.
    pub image: Option<String>,
    /// Comma-separated search words.
    pub keywords: Option<String>,
    /// The block's HTML with its `x-vars` definitions.
    pub template: Option<String>,
    pub css: Option<String>,
    pub js: Option<String>,
    /// 0 to 1000000.
    pub order: Option<i64>,
}

impl BlockSource {
    /// A saved block as a source, every field given: what [`BlockSource::or`] keeps.
    pub fn saved(block: BlockContent, order: i64) -> BlockSource {
        BlockSource {
            name: Some(block.name),
            image: Some(block.image),
            keywords: Some(block.keywords),
            template: Some(block.template),
            css: Some(block.css),
            js: Some(block.js),
            order: Some(order),
        }
    }

    /// This source with what it leaves out taken from `kept` (the block it replaces).
    pub fn or(self, kept: BlockSource) -> BlockSource {
        BlockSource {
            name: self.name.or(kept.name),
            image: self.image.or(kept.image),
            keywords: self.keywords.or(kept.keywords),
            template: self.template.or(kept.template),
            css: self.css.or(kept.css),
            js: self.js.or(kept.js),
            order: self.order.or(kept.order),
        }
    }

    /// The name ([`block_name`]), code ([`check_code`]) and search words
    /// ([`check_search_words`]) checked; what the source leaves out is empty. The image is
    /// each library's to check.
    pub fn check(self) -> Result<BlockContent> {
        let name = block_name(self.name.as_deref())?;
        let template = self.template.unwrap_or_default();
        let css = self.css.unwrap_or_default();
        let js = self.js.unwrap_or_default();
        check_code(&template, &css, &js)?;
        let keywords = self.keywords.unwrap_or_default();
        check_search_words(&keywords)?;
        Ok(BlockContent {
            name,
            image: self.image.unwrap_or_default(),
            keywords,
            template,
            css,
            js,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_run_from_zero_to_a_million() {
        for ok in [0, 99, 1_000_000] {
            assert_eq!(check_order(ok).unwrap(), ok);
        }
        for bad in [-1, 1_000_001, i64::MIN, i64::MAX] {
            assert_eq!(
                check_order(bad).unwrap_err().code(),
                ErrorCode::OrderOutOfRange
            );
        }
    }

    #[test]
    fn block_names_are_trimmed_required_and_at_most_200_characters() {
        assert_eq!(block_name(Some("  Hero ")).unwrap(), "Hero");
        assert_eq!(block_name(Some(&"é".repeat(200))).unwrap(), "é".repeat(200));
        for bad in [None, Some(""), Some("   ")] {
            assert_eq!(
                block_name(bad).unwrap_err().code(),
                ErrorCode::BlockNameRequired
            );
        }
        assert_eq!(
            block_name(Some(&"a".repeat(201))).unwrap_err().code(),
            ErrorCode::TooLong
        );
    }
}
