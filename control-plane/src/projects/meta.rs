//! A project's settings as an owner writes them (spec 1 §3 Project.meta): the fonts, custom
//! code, form e-mail, conversion API and the other client-writable keys, each checked, merged
//! over what is stored. Server-owned keys are never read from a request.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use vitrine_shared::domain::Invalid;

use crate::error::ErrorCode;

/// A font the site loads (spec 1 §3 "Font entry").
#[derive(Debug, Clone, Deserialize, serde::Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Font {
    pub family: String,
    #[serde(default)]
    pub variants: Vec<String>,
}

/// A `.woff2` file uploaded by the owner.
#[derive(Debug, Clone, Deserialize, serde::Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CustomFont {
    pub family: String,
    pub variants: Vec<String>,
    /// The upload URL returned by POST /api/upload.
    pub filename: String,
}

/// The form history's order (`meta.formHistoryOrderBy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum FormOrder {
    #[serde(rename = "created_at")]
    OldestFirst,
    #[serde(rename = "-created_at")]
    NewestFirst,
}

impl FormOrder {
    /// The order a setting names, if it names one.
    pub fn parse(setting: &str) -> Option<FormOrder> {
        match setting {
            "created_at" => Some(FormOrder::OldestFirst),
            "-created_at" => Some(FormOrder::NewestFirst),
            _ => None,
        }
    }
}

/// The meta keys a client may set. Keys not listed here (including the server-owned
/// verification keys) are ignored.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectMetaInput {
    pub description: Option<String>,
    pub default_font: Option<Font>,
    pub fonts: Option<Vec<Font>>,
    pub custom_fonts: Option<Vec<CustomFont>>,
    pub header: Option<String>,
    pub footer: Option<String>,
    pub favicon: Option<String>,
    pub conversion_api_enabled: Option<bool>,
    pub conversion_api_access_token: Option<String>,
    pub conversion_api_pixel_id: Option<String>,
    /// Read as text, so that another value gets the coded `form_order_invalid` answer.
    #[schema(value_type = Option<FormOrder>)]
    pub form_history_order_by: Option<String>,
    /// Where the published site's form notifications go; empty means the owner's e-mail.
    pub form_email: Option<String>,
    pub deployv2: Option<bool>,
    /// Whether the published site asks browsers to use HTTPS only (Strict-Transport-Security).
    /// Opt-in: a browser that saw it refuses plain HTTP to the domain for a long time.
    pub hsts: Option<bool>,
    /// The published site's `/robots.txt` (plain text lines, at most 8 KB); empty means the
    /// default, which lets every crawler in and names the sitemap.
    pub robots: Option<String>,
    /// Whether the edge counts the site's visitors (`docs/analytics.md`); on by default,
    /// `false` turns counting off.
    pub analytics: Option<bool>,
}

const FONT_WEIGHTS: &[&str] = &[
    "100", "200", "300", "400", "500", "600", "700", "800", "900", "regular",
];
const MAX_CODE: usize = 100 * 1024;

fn check_family(family: &str) -> Result<(), Invalid> {
    let ok = !family.trim().is_empty()
        && family.len() <= 100
        && family
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if ok {
        Ok(())
    } else {
        Err(Invalid::new(
            "fonts",
            ErrorCode::FontFamilyInvalid,
            format!("Invalid font family {family:?}"),
        )
        .param("family", family))
    }
}

fn check_variants(variants: &[String]) -> Result<(), Invalid> {
    for v in variants {
        let weight = v.trim_end_matches("italic");
        let ok =
            v == "italic" || FONT_WEIGHTS.contains(&weight) || FONT_WEIGHTS.contains(&v.as_str());
        if !ok {
            return Err(Invalid::new(
                "fonts",
                ErrorCode::FontVariantInvalid,
                format!("Invalid font variant {v:?}"),
            )
            .param("variant", v.as_str()));
        }
    }
    Ok(())
}

/// Our own upload URLs only: a site must not be made to load files from elsewhere through
/// fields meant for uploads.
fn check_upload_url(field: &'static str, url: &str) -> Result<(), Invalid> {
    if url.is_empty() || (url.starts_with("/files/uploads/") && !url.contains("..")) {
        Ok(())
    } else {
        Err(Invalid::new(
            field,
            ErrorCode::NotAnUpload,
            "Must be a file uploaded to this site",
        ))
    }
}

impl ProjectMetaInput {
    /// Validates and merges these changes into `current`, returning the new stored meta.
    pub fn merge_into(self, current: &Value) -> Result<Value, Invalid> {
        let mut meta = match current {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        };
        let mut set = |k: &str, v: Value| {
            meta.insert(k.to_string(), v);
        };
        if let Some(d) = self.description {
            if d.chars().count() > 1000 {
                return Err(Invalid::new(
                    "description",
                    ErrorCode::TooLong,
                    "Description must be at most 1000 characters",
                )
                .param("max", 1000));
            }
            set("description", Value::String(d));
        }
        if let Some(f) = self.default_font {
            check_family(&f.family)?;
            check_variants(&f.variants)?;
            set(
                "defaultFont",
                serde_json::to_value(f).expect("serialisable"),
            );
        }
        if let Some(fonts) = self.fonts {
            if fonts.len() > 30 {
                return Err(
                    Invalid::new("fonts", ErrorCode::TooManyFonts, "At most 30 fonts")
                        .param("max", 30),
                );
            }
            for f in &fonts {
                check_family(&f.family)?;
                check_variants(&f.variants)?;
            }
            set("fonts", serde_json::to_value(fonts).expect("serialisable"));
        }
        if let Some(fonts) = self.custom_fonts {
            if fonts.len() > 30 {
                return Err(Invalid::new(
                    "customFonts",
                    ErrorCode::TooManyFonts,
                    "At most 30 custom fonts",
                )
                .param("max", 30));
            }
            for f in &fonts {
                check_family(&f.family).map_err(|e| Invalid {
                    field: "customFonts",
                    ..e
                })?;
                if f.variants.len() != 1 || !FONT_WEIGHTS.contains(&f.variants[0].as_str()) {
                    return Err(Invalid::new(
                        "customFonts",
                        ErrorCode::FontWeightInvalid,
                        "Choose one weight: 100 to 900 or regular",
                    ));
                }
                if !f.filename.ends_with(".woff2") {
                    return Err(Invalid::new(
                        "customFonts",
                        ErrorCode::WoffOnly,
                        "Only .woff2 files are accepted",
                    ));
                }
                check_upload_url("customFonts", &f.filename)?;
            }
            set(
                "customFonts",
                serde_json::to_value(fonts).expect("serialisable"),
            );
        }
        for (key, value) in [("header", self.header), ("footer", self.footer)] {
            if let Some(code) = value {
                if code.len() > MAX_CODE {
                    return Err(Invalid::new(
                        "meta",
                        ErrorCode::CodeTooLarge,
                        format!("{key} code must be at most 100 KB"),
                    )
                    .param("part", key)
                    .param("kb", 100));
                }
                set(key, Value::String(code));
            }
        }
        if let Some(icon) = self.favicon {
            check_upload_url("favicon", &icon)?;
            set("favicon", Value::String(icon));
        }
        if let Some(token) = self.conversion_api_access_token {
            set(
                "conversionApiAccessToken",
                Value::String(token.trim().to_string()),
            );
        }
        if let Some(pixel) = self.conversion_api_pixel_id {
            let pixel = pixel.trim().to_string();
            if !pixel.chars().all(|c| c.is_ascii_digit()) {
                return Err(Invalid::new(
                    "conversionApiPixelId",
                    ErrorCode::PixelIdDigits,
                    "Pixel ID must contain only digits",
                ));
            }
            set("conversionApiPixelId", Value::String(pixel));
        }
        if let Some(enabled) = self.conversion_api_enabled {
            set("conversionApiEnabled", Value::Bool(enabled));
        }
        if let Some(order) = self.form_history_order_by {
            let Some(order) = FormOrder::parse(&order) else {
                return Err(Invalid::new(
                    "formHistoryOrderBy",
                    ErrorCode::FormOrderInvalid,
                    "Order must be created_at or -created_at",
                ));
            };
            set("formHistoryOrderBy", serde_json::json!(order));
        }
        if let Some(v2) = self.deployv2 {
            set("deployv2", Value::Bool(v2));
        }
        if let Some(hsts) = self.hsts {
            set("hsts", Value::Bool(hsts));
        }
        if let Some(analytics) = self.analytics {
            set("analytics", Value::Bool(analytics));
        }
        if let Some(robots) = self.robots {
            use vitrine_shared::seo::{BadRobots, MAX_ROBOTS_BYTES, check_robots};
            check_robots(&robots).map_err(|e| match e {
                BadRobots::TooLarge => {
                    Invalid::new("robots", ErrorCode::RobotsTooLarge, e.to_string())
                        .param("kb", MAX_ROBOTS_BYTES / 1024)
                }
                BadRobots::NotText => {
                    Invalid::new("robots", ErrorCode::RobotsInvalid, e.to_string())
                }
            })?;
            set("robots", Value::String(robots));
        }
        if let Some(email) = self.form_email {
            let email = email.trim();
            if email.is_empty() {
                meta.remove("formEmail");
            } else {
                let email = vitrine_shared::domain::Email::parse(email).map_err(|e| Invalid {
                    field: "formEmail",
                    ..e
                })?;
                meta.insert("formEmail".into(), Value::String(email.as_str().into()));
            }
        }
        // The rule spans fields, so check it on the merged result.
        let text = |k: &str| {
            meta.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        if meta.get("conversionApiEnabled") == Some(&Value::Bool(true)) {
            if text("conversionApiAccessToken").is_empty() {
                return Err(Invalid::new(
                    "conversionApiAccessToken",
                    ErrorCode::AccessTokenRequired,
                    "Conversion API access token is required",
                ));
            }
            if text("conversionApiPixelId").is_empty() {
                return Err(Invalid::new(
                    "conversionApiPixelId",
                    ErrorCode::PixelIdRequired,
                    "Pixel ID is required",
                ));
            }
        }
        Ok(Value::Object(meta))
    }
}

/// The Conversion API's access token and pixel id of a project (`crate::conversions`), when the integration is on: both set, and not
/// turned off (`conversionApiEnabled: false`).
pub fn credentials(meta: &Value) -> Option<(&str, &str)> {
    let text = |k: &str| meta.get(k).and_then(Value::as_str).map(str::trim);
    let token = text("conversionApiAccessToken").filter(|t| !t.is_empty())?;
    let pixel = text("conversionApiPixelId")
        .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))?;
    (meta.get("conversionApiEnabled") != Some(&Value::Bool(false))).then_some((token, pixel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(v: Value) -> ProjectMetaInput {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn server_owned_meta_keys_are_ignored() {
        let current = json!({"description": "a"});
        let merged =
            input(json!({"verified": true, "verifiedDomain": "x.com", "description": "b"}))
                .merge_into(&current)
                .unwrap();
        assert_eq!(merged, json!({"description": "b"}));
    }

    #[test]
    fn conversion_api_needs_token_and_pixel_when_enabled() {
        let empty = json!({});
        let err = input(json!({"conversionApiEnabled": true}))
            .merge_into(&empty)
            .unwrap_err();
        assert_eq!(err.field, "conversionApiAccessToken");
        let err = input(json!({"conversionApiEnabled": true, "conversionApiAccessToken": "t"}))
            .merge_into(&empty)
            .unwrap_err();
        assert_eq!(err.field, "conversionApiPixelId");
        assert!(input(json!({"conversionApiEnabled": true, "conversionApiAccessToken": "t", "conversionApiPixelId": "123"}))
            .merge_into(&empty)
            .is_ok());
        assert!(
            input(json!({"conversionApiEnabled": false}))
                .merge_into(&empty)
                .is_ok()
        );
    }

    #[test]
    fn fonts_are_checked() {
        let empty = json!({});
        assert!(input(json!({"defaultFont": {"family": "Open Sans", "variants": ["regular", "700", "700italic"]}})).merge_into(&empty).is_ok());
        assert!(
            input(json!({"defaultFont": {"family": "x</style>", "variants": []}}))
                .merge_into(&empty)
                .is_err()
        );
        assert!(input(json!({"customFonts": [{"family": "Mine", "variants": ["950"], "filename": "/files/uploads/1/2/a.woff2"}]})).merge_into(&empty).is_err());
        assert!(input(json!({"customFonts": [{"family": "Mine", "variants": ["300"], "filename": "https://evil.example/a.woff2"}]})).merge_into(&empty).is_err());
        assert!(input(json!({"customFonts": [{"family": "Mine", "variants": ["300"], "filename": "/files/uploads/1/2/a.woff2"}]})).merge_into(&empty).is_ok());
    }
}
