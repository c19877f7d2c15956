//! The dashboard's font catalogue, compiled in (the Google Fonts families Fontsource serves,
//! built by `dashboard/scripts/build-fonts-catalogue.mjs`): a family's spelling and category,
//! the generic family it falls back to, and a family name made safe for CSS. Below both
//! `crate::theme` and `crate::fonts`, which re-exports it.

use std::{collections::HashMap, sync::LazyLock};

use serde::Deserialize;

const CATALOGUE: &str = include_str!("../../dashboard/src/features/projects/fonts-catalogue.json");

#[derive(Deserialize)]
struct CatalogueEntry {
    family: String,
    category: String,
}

/// Lower-cased family → (the catalogue's spelling, category: `serif`, `sans-serif`,
/// `display`, `handwriting`, `monospace`).
static CATEGORIES: LazyLock<HashMap<String, (String, String)>> = LazyLock::new(|| {
    serde_json::from_str::<Vec<CatalogueEntry>>(CATALOGUE)
        .unwrap_or_default()
        .into_iter()
        .map(|e| (e.family.to_lowercase(), (e.family, e.category)))
        .collect()
});

/// The catalogue's spelling of a family (`playfair display` → `Playfair Display`), when the
/// catalogue lists it.
pub fn catalogue_name(family: &str) -> Option<String> {
    CATEGORIES
        .get(&family.trim().to_lowercase())
        .map(|(name, _)| name.clone())
}

/// The fallback of a family: the generic family of its category, after the family itself.
pub fn fallback_stack(family: &str) -> &'static str {
    match CATEGORIES
        .get(&family.trim().to_lowercase())
        .map(|(_, category)| category.as_str())
    {
        Some("serif") => "serif",
        Some("monospace") => "ui-monospace,monospace",
        Some("handwriting") => "cursive",
        _ => "system-ui,sans-serif",
    }
}

/// A family name made safe for a CSS string.
pub fn css_family(family: &str) -> String {
    family
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .collect()
}
