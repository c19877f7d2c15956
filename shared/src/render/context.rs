//! The live data one render sees: the site (with its identity, theme and the year), the
//! page, a collection page's post and the records of the page's lists, as the templates read
//! them (`site`, `page`, `post`).

use std::collections::BTreeMap;

use minijinja::Value;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::vars::json_value;
use crate::identity::Identity;
use crate::list_query::DbRecord;
use crate::theme::Theme;
use crate::values::{Lang, format_date, format_long_date};

/// One entry of the site menu (`site.menu`; `crate::sections` makes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuItem {
    pub name: String,
    /// `/` for the home page, `/{slug}` for the others.
    pub url: String,
}

/// The live data a render sees (sent to the render sandbox as JSON).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RenderContext {
    pub site_name: String,
    pub site_slug: String,
    pub page_name: String,
    pub page_slug: String,
    /// The post of a collection page, and the rich-text field slugs whose values are already
    /// sanitised HTML (they are output without escaping).
    pub post: Option<PostView>,
    /// Database-fed lists by [`DbList::key`](super::DbList::key).
    pub lists: BTreeMap<String, Vec<PostView>>,
    /// Records of lists read from outside JSON APIs, by the key of
    /// [`Block::api_lists`](super::Block::api_lists).
    pub api: BTreeMap<String, Vec<Json>>,
    /// The site's language (`pt-BR` or `en`, the owner's setting): dates are written in it.
    #[serde(default)]
    pub lang: String,
    /// The project's page paths (`/`, `/sobre`, and `/{slug}/*` for a collection page), when
    /// the caller knows them: the `working_link` test finds internal links against them.
    #[serde(default)]
    pub pages: Option<Vec<String>>,
    /// The site menu (`crate::sections::menu`), when the caller knows it: templates read it as
    /// `site.menu`, a list of `{name, url, current}`.
    #[serde(default)]
    pub menu: Option<Vec<MenuItem>>,
    /// The site's identity (`crate::identity`): `site.identity.*`, and what `x-vars`
    /// definitions bound with `"identity": key` read when their value is empty. Without one,
    /// the identity is `site_name` and nothing else.
    #[serde(default)]
    pub identity: Option<Identity>,
    /// The site's theme (`crate::theme`): `site.theme.*`; the platform default without one.
    #[serde(default)]
    pub theme: Option<Theme>,
    /// `site.year`: the year the caller renders in (the worker has no clock; see
    /// [`RenderContext::for_site`]).
    #[serde(default)]
    pub year: Option<i32>,
}

/// A record ready for templates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostView {
    pub record: DbRecord,
    /// `/{page slug}/{post slug}` when the collection has a page.
    pub permalink: String,
    /// Field slugs holding sanitised HTML (wysiwyg).
    pub html_fields: Vec<String>,
}

impl PostView {
    /// The post's value for a binding: `name`, `slug`, `date`, `date_long`, `created_at`,
    /// `permalink`, `url`, `id`, a field slug (its formatted value, see [`crate::values`]) or
    /// `raw.{field slug}` (the stored value).
    pub fn field(&self, binding: &str, lang: Lang) -> Value {
        let created = self.record.created_at;
        match binding {
            "name" => Value::from(self.record.name.clone()),
            "slug" => Value::from(self.record.slug.clone()),
            "id" => Value::from(self.record.id.get()),
            "date" => Value::from(format_date(created, lang)),
            "date_long" => Value::from(format_long_date(created, lang)),
            "created_at" => Value::from(created.to_rfc3339()),
            "permalink" => Value::from(self.permalink.clone()),
            "url" => self.url(),
            other => match other.strip_prefix("raw.") {
                Some(raw) => self.raw_value(raw),
                None => self.value(other.strip_prefix("fields.").unwrap_or(other)),
            },
        }
    }

    /// The post's page, or undefined (so `{% if it.url %}` hides a link) when its collection
    /// has no collection page.
    fn url(&self) -> Value {
        if self.permalink.is_empty() {
            Value::UNDEFINED
        } else {
            Value::from(self.permalink.clone())
        }
    }

    /// A field's stored value (rich text already sanitised, marked safe).
    fn raw_value(&self, slug: &str) -> Value {
        match self.record.fields.get(slug) {
            Some(Json::String(s)) if self.html_fields.iter().any(|h| h == slug) => {
                Value::from_safe_string(s.clone())
            }
            Some(v) => json_value(v),
            None => Value::UNDEFINED,
        }
    }

    /// A field's value as visitors read it: the formatted form when its type has one.
    fn value(&self, slug: &str) -> Value {
        match self.record.formatted.get(slug) {
            Some(v) => json_value(v),
            None => self.raw_value(slug),
        }
    }

    fn to_value(&self, lang: Lang) -> Value {
        Value::from_object(self.to_map(lang))
    }

    pub(super) fn to_map(&self, lang: Lang) -> BTreeMap<String, Value> {
        let slugs = || self.record.fields.keys();
        let fields: BTreeMap<String, Value> = slugs().map(|k| (k.clone(), self.value(k))).collect();
        let raw: BTreeMap<String, Value> =
            slugs().map(|k| (k.clone(), self.raw_value(k))).collect();
        let mut map = BTreeMap::new();
        for key in [
            "id",
            "name",
            "slug",
            "created_at",
            "date",
            "date_long",
            "permalink",
            "url",
        ] {
            map.insert(key.to_string(), self.field(key, lang));
        }
        map.insert("fields".into(), Value::from_object(fields));
        map.insert("raw".into(), Value::from_object(raw));
        map
    }
}

impl RenderContext {
    /// A context for a site with this identity and theme, rendered now: `site_name` is the
    /// identity's name and `year` the current year. The page and the lists are the caller's.
    pub fn for_site(identity: Identity, theme: Theme) -> RenderContext {
        use chrono::Datelike;
        RenderContext {
            site_name: identity.name.clone(),
            identity: Some(identity),
            theme: Some(theme),
            year: Some(chrono::Utc::now().year()),
            ..RenderContext::default()
        }
    }

    pub(super) fn lang(&self) -> Lang {
        Lang::parse(&self.lang)
    }

    /// The identity blocks see: the one given, else just the site's name.
    pub(super) fn identity(&self) -> Identity {
        let mut identity = self.identity.clone().unwrap_or_default();
        if identity.name.trim().is_empty() {
            identity.name = self.site_name.clone();
        }
        identity
    }

    /// `site.identity`: every stored key, the social links under `social`, and
    /// `whatsapp_url` (undefined without a number).
    fn identity_value(&self) -> Value {
        let identity = self.identity();
        let mut map: BTreeMap<String, Value> = match serde_json::to_value(&identity) {
            Ok(Json::Object(o)) => o.iter().map(|(k, v)| (k.clone(), json_value(v))).collect(),
            _ => BTreeMap::new(),
        };
        map.insert(
            "whatsapp_url".into(),
            identity
                .whatsapp_url()
                .map(Value::from)
                .unwrap_or(Value::UNDEFINED),
        );
        Value::from_object(map)
    }

    /// `site.menu`: each item with `current` set on the page being rendered (and on the
    /// collection page a post belongs to); undefined when the menu is unknown.
    fn menu_value(&self) -> Value {
        let Some(menu) = &self.menu else {
            return Value::UNDEFINED;
        };
        let here = format!("/{}", self.page_slug.trim_matches('/'));
        Value::from(
            menu.iter()
                .map(|item| {
                    let current = item.url == here;
                    Value::from_serialize(serde_json::json!({
                        "name": item.name,
                        "url": item.url,
                        "current": current,
                    }))
                })
                .collect::<Vec<_>>(),
        )
    }

    /// What every block sees: `site`, `page` and, on a collection page, `post`.
    pub(super) fn base(&self) -> BTreeMap<String, Value> {
        let mut map: BTreeMap<String, Value> = BTreeMap::new();
        let site: BTreeMap<&str, Value> = [
            ("name", Value::from(self.identity().name)),
            ("slug", Value::from(self.site_slug.clone())),
            (
                "lang",
                Value::from(if self.lang.is_empty() {
                    "pt-BR"
                } else {
                    &self.lang
                }),
            ),
            (
                "pages",
                self.pages
                    .as_ref()
                    .map(Value::from_serialize)
                    .unwrap_or(Value::UNDEFINED),
            ),
            ("menu", self.menu_value()),
            ("identity", self.identity_value()),
            (
                "theme",
                Value::from_serialize(self.theme.clone().unwrap_or_default()),
            ),
            (
                "year",
                Value::from(self.year.unwrap_or_else(|| {
                    use chrono::Datelike;
                    chrono::Utc::now().year()
                })),
            ),
        ]
        .into();
        let page: BTreeMap<&str, Value> = [
            ("name", Value::from(self.page_name.clone())),
            ("slug", Value::from(self.page_slug.clone())),
        ]
        .into();
        map.insert("site".into(), Value::from_serialize(&site));
        map.insert("page".into(), Value::from_serialize(&page));
        if let Some(post) = &self.post {
            map.insert("post".into(), post.to_value(self.lang()));
        }
        map
    }
}
