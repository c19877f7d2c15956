//! A site's identity (issue 41 §1): the business's name, description, logo, contacts, opening
//! hours and social links, stored once in the project's meta (`meta.identity`) and read by
//! every page through the render variables `site.identity.*` and by the document around the
//! blocks (title, description, Open Graph, the form mail subject, the 404 page).
//!
//! What is stored is checked here ([`Identity::merge`]); a project with no stored name is
//! called by its project name ([`Identity::of_meta`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::domain::{Email, Invalid};
use crate::error_code::ErrorCode;

/// The longest name, description, hours, free text and link an identity holds.
pub const MAX_NAME: usize = 100;
pub const MAX_DESCRIPTION: usize = 300;
pub const MAX_HOURS: usize = 500;
pub const MAX_TEXT: usize = 300;
pub const MAX_PHONE: usize = 40;
pub const MAX_LINK: usize = 500;

/// The social networks an identity links to.
pub const NETWORKS: [&str; 6] = [
    "instagram",
    "facebook",
    "tiktok",
    "youtube",
    "linkedin",
    "x",
];

/// The keys an `x-vars` definition may bind with `"identity": "<key>"`.
pub const BINDING_KEYS: [&str; 15] = [
    "name",
    "description",
    "logo",
    "whatsapp",
    "whatsapp_url",
    "phone",
    "email",
    "address",
    "hours",
    "instagram",
    "facebook",
    "tiktok",
    "youtube",
    "linkedin",
    "x",
];

/// A site's identity, as stored and as the API answers it (every key present, `""` when unset).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct Identity {
    pub name: String,
    pub description: String,
    /// An upload URL (`/files/uploads/…`) or `""`.
    pub logo: String,
    /// Digits only (`5511987654321`), as the `whatsapp_link` field type normalises them.
    pub whatsapp: String,
    pub phone: String,
    pub email: String,
    pub address: String,
    pub hours: String,
    pub social: Social,
}

/// The identity's social links: http(s) URLs or `""`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct Social {
    pub instagram: String,
    pub facebook: String,
    pub tiktok: String,
    pub youtube: String,
    pub linkedin: String,
    pub x: String,
}

/// An identity as a client writes it: `name` required, every other key optional (an absent
/// key keeps the stored value, `""` clears it).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IdentityInput {
    pub name: Option<String>,
    pub description: Option<String>,
    pub logo: Option<String>,
    pub whatsapp: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub address: Option<String>,
    pub hours: Option<String>,
    pub social: Option<SocialInput>,
}

/// Social links as a client writes them.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SocialInput {
    pub instagram: Option<String>,
    pub facebook: Option<String>,
    pub tiktok: Option<String>,
    pub youtube: Option<String>,
    pub linkedin: Option<String>,
    pub x: Option<String>,
}

fn too_long(field: &'static str, max: usize) -> Invalid {
    Invalid::new(
        field,
        ErrorCode::TooLong,
        format!("{field} must be at most {max} characters"),
    )
    .param("max", max)
}

/// Trimmed text of at most `max` characters.
fn text(field: &'static str, v: &str, max: usize) -> Result<String, Invalid> {
    let v = v.trim();
    if v.chars().count() > max {
        return Err(too_long(field, max));
    }
    Ok(v.to_string())
}

/// The digits of a WhatsApp number by the `whatsapp_link` field type's rule
/// ([`crate::fields::whatsapp_digits`]).
fn whatsapp(v: &str) -> Result<String, Invalid> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(String::new());
    }
    let d = crate::fields::whatsapp_digits(v);
    if !(8..=15).contains(&d.len()) {
        return Err(Invalid::new(
            "whatsapp",
            ErrorCode::IdentityWhatsappInvalid,
            "A WhatsApp number has 8 to 15 digits, with the country code",
        ));
    }
    Ok(d)
}

fn phone(v: &str) -> Result<String, Invalid> {
    let v = text("phone", v, MAX_PHONE)?;
    let digits = v.chars().filter(char::is_ascii_digit).count();
    let allowed = v
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '+' | '-' | '(' | ')' | '.'));
    if !v.is_empty() && (!allowed || digits < 8) {
        return Err(Invalid::new(
            "phone",
            ErrorCode::IdentityPhoneInvalid,
            "A telephone number has at least 8 digits and only + - ( ) . and spaces besides",
        ));
    }
    Ok(v)
}

fn email(v: &str) -> Result<String, Invalid> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(String::new());
    }
    Ok(Email::parse(v)?.as_str().to_string())
}

/// An http(s) link of at most [`MAX_LINK`] characters, or `""`.
fn link(field: &'static str, v: &str) -> Result<String, Invalid> {
    let v = text(field, v, MAX_LINK)?;
    if v.is_empty() {
        return Ok(v);
    }
    let ok = url::Url::parse(&v)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some());
    match ok {
        Some(_) => Ok(v),
        None => Err(Invalid::new(
            field,
            ErrorCode::IdentityLinkInvalid,
            "A link must be an http(s) address",
        )
        .param("field", field)),
    }
}

/// An upload URL (`/files/uploads/…`) or `""`. Whose upload it is, the caller checks.
fn logo(v: &str) -> Result<String, Invalid> {
    let v = v.trim();
    let key = v.strip_prefix("/files/");
    if v.is_empty()
        || key.is_some_and(|k| {
            k.starts_with(crate::uploads::UPLOADS) && crate::uploads::UploadKey::parse(k).is_some()
        })
    {
        Ok(v.to_string())
    } else {
        Err(Invalid::new(
            "logo",
            ErrorCode::NotAnUpload,
            "Must be a file uploaded to this site",
        ))
    }
}

impl Identity {
    /// The stored identity of a project's meta (as stored: its name may be empty).
    pub fn stored(meta: &Value) -> Identity {
        meta.get("identity")
            .filter(|v| v.is_object())
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    }

    /// The project's identity, its name falling back to the project's name.
    pub fn of_meta(meta: &Value, project_name: &str) -> Identity {
        let mut identity = Identity::stored(meta);
        if identity.name.trim().is_empty() {
            identity.name = project_name.to_string();
        }
        identity
    }

    /// `input` checked and merged over `self`.
    pub fn merge(&self, input: IdentityInput) -> Result<Identity, Invalid> {
        let mut out = self.clone();
        let name = input.name.as_deref().unwrap_or("").trim();
        if name.is_empty() {
            return Err(Invalid::new(
                "name",
                ErrorCode::IdentityNameRequired,
                "The site's name is required",
            ));
        }
        out.name = text("name", name, MAX_NAME)?;
        if let Some(v) = input.description {
            out.description = text("description", &v, MAX_DESCRIPTION)?;
        }
        if let Some(v) = input.logo {
            out.logo = logo(&v)?;
        }
        if let Some(v) = input.whatsapp {
            out.whatsapp = whatsapp(&v)?;
        }
        if let Some(v) = input.phone {
            out.phone = phone(&v)?;
        }
        if let Some(v) = input.email {
            out.email = email(&v)?;
        }
        if let Some(v) = input.address {
            out.address = text("address", &v, MAX_TEXT)?;
        }
        if let Some(v) = input.hours {
            out.hours = text("hours", &v, MAX_HOURS)?;
        }
        if let Some(s) = input.social {
            let slots = [
                ("instagram", s.instagram, &mut out.social.instagram),
                ("facebook", s.facebook, &mut out.social.facebook),
                ("tiktok", s.tiktok, &mut out.social.tiktok),
                ("youtube", s.youtube, &mut out.social.youtube),
                ("linkedin", s.linkedin, &mut out.social.linkedin),
                ("x", s.x, &mut out.social.x),
            ];
            for (field, value, slot) in slots {
                if let Some(v) = value {
                    *slot = link(field, &v)?;
                }
            }
        }
        Ok(out)
    }

    /// `https://wa.me/<digits>`, when the identity has a WhatsApp number.
    pub fn whatsapp_url(&self) -> Option<String> {
        crate::values::whatsapp_url(&self.whatsapp)
    }

    /// The value a binding key ([`BINDING_KEYS`]) reads; `""` for an unknown key or an
    /// unset value.
    pub fn value(&self, key: &str) -> String {
        let s = &self.social;
        match key {
            "name" => self.name.clone(),
            "description" => self.description.clone(),
            "logo" => self.logo.clone(),
            "whatsapp" => self.whatsapp.clone(),
            "whatsapp_url" => self.whatsapp_url().unwrap_or_default(),
            "phone" => self.phone.clone(),
            "email" => self.email.clone(),
            "address" => self.address.clone(),
            "hours" => self.hours.clone(),
            "instagram" => s.instagram.clone(),
            "facebook" => s.facebook.clone(),
            "tiktok" => s.tiktok.clone(),
            "youtube" => s.youtube.clone(),
            "linkedin" => s.linkedin.clone(),
            "x" => s.x.clone(),
            _ => String::new(),
        }
    }

    /// The link a binding key makes for a `link` variable: the WhatsApp, telephone and
    /// e-mail keys as their URLs (`https://wa.me/…`, `tel:…`, `mailto:…`), the others as
    /// stored.
    pub fn link(&self, key: &str) -> String {
        match key {
            "whatsapp" | "whatsapp_url" => self.whatsapp_url().unwrap_or_default(),
            "phone" => crate::values::telephone_url(&self.phone).unwrap_or_default(),
            "email" => crate::values::email_url(&self.email).unwrap_or_default(),
            other => self.value(other),
        }
    }
}

/// A page's `<title>` (and `og:title`): the site's name on the home page, `{page} | {site}`
/// on the others.
pub fn page_title(page_name: &str, is_home: bool, site_name: &str) -> String {
    if is_home || page_name.trim().is_empty() {
        site_name.to_string()
    } else {
        format!("{page_name} | {site_name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(v: Value) -> IdentityInput {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn titles_name_the_site() {
        assert_eq!(
            page_title("Início", true, "Doces da Bruna"),
            "Doces da Bruna"
        );
        assert_eq!(
            page_title("Sobre", false, "Doces da Bruna"),
            "Sobre | Doces da Bruna"
        );
    }

    #[test]
    fn the_name_falls_back_to_the_projects() {
        assert_eq!(Identity::of_meta(&json!({}), "Loja").name, "Loja");
        let meta = json!({"identity": {"name": "Doces da Bruna", "whatsapp": "5511987654321"}});
        let id = Identity::of_meta(&meta, "Loja");
        assert_eq!(id.name, "Doces da Bruna");
        assert_eq!(
            id.whatsapp_url().as_deref(),
            Some("https://wa.me/5511987654321")
        );
        assert_eq!(
            Identity::stored(&json!({"identity": 3})),
            Identity::default()
        );
    }

    #[test]
    fn a_full_identity_is_normalised() {
        let id = Identity::default()
            .merge(input(json!({
                "name": "  Doces da Bruna ",
                "description": "Bolos e doces",
                "logo": "/files/uploads/1/2/0123456789abcdef0123/logo.png",
                "whatsapp": "(11) 98765-4321",
                "phone": "+55 11 3333-4444",
                "email": "Contato@DocesDaBruna.com.br",
                "address": "Rua das Flores, 120",
                "hours": "Seg a sex, 8h–18h\nSáb, 8h–12h",
                "social": {"instagram": "https://instagram.com/docesdabruna"}
            })))
            .unwrap();
        assert_eq!(id.name, "Doces da Bruna");
        assert_eq!(id.whatsapp, "5511987654321");
        assert_eq!(id.email, "contato@docesdabruna.com.br");
        assert_eq!(id.social.instagram, "https://instagram.com/docesdabruna");
        assert_eq!(id.value("instagram"), id.social.instagram);
        assert_eq!(id.link("phone"), "tel:551133334444");
        assert_eq!(id.link("email"), "mailto:contato@docesdabruna.com.br");
        assert_eq!(id.link("whatsapp"), "https://wa.me/5511987654321");
        // Absent keys keep what is stored; "" clears.
        let kept = id
            .merge(input(json!({"name": "Bruna", "phone": ""})))
            .unwrap();
        assert_eq!(kept.whatsapp, "5511987654321");
        assert_eq!(kept.phone, "");
    }

    #[test]
    fn bad_values_are_refused_with_their_code() {
        let refused = |v: Value| Identity::default().merge(input(v)).unwrap_err();
        let e = refused(json!({"description": "x"}));
        assert_eq!((e.field, e.code), ("name", ErrorCode::IdentityNameRequired));
        let e = refused(json!({"name": " "}));
        assert_eq!(e.code, ErrorCode::IdentityNameRequired);
        let e = refused(json!({"name": "a".repeat(101)}));
        assert_eq!((e.field, e.code), ("name", ErrorCode::TooLong));
        let e = refused(json!({"name": "a", "description": "d".repeat(301)}));
        assert_eq!((e.field, e.code), ("description", ErrorCode::TooLong));
        let e = refused(json!({"name": "a", "whatsapp": "abc"}));
        assert_eq!(e.code, ErrorCode::IdentityWhatsappInvalid);
        let e = refused(json!({"name": "a", "phone": "ligue já"}));
        assert_eq!(e.code, ErrorCode::IdentityPhoneInvalid);
        let e = refused(json!({"name": "a", "email": "not-an-email"}));
        assert_eq!((e.field, e.code), ("email", ErrorCode::EmailInvalid));
        let e = refused(json!({"name": "a", "logo": "https://evil.example/x.png"}));
        assert_eq!((e.field, e.code), ("logo", ErrorCode::NotAnUpload));
        let e = refused(json!({"name": "a", "social": {"x": "javascript:alert(1)"}}));
        assert_eq!((e.field, e.code), ("x", ErrorCode::IdentityLinkInvalid));
        let e = refused(json!({"name": "a", "hours": "h".repeat(501)}));
        assert_eq!((e.field, e.code), ("hours", ErrorCode::TooLong));
        assert!(serde_json::from_value::<IdentityInput>(json!({"name": "a", "owner": 1})).is_err());
    }

    #[test]
    fn every_binding_key_reads_a_value() {
        let id = Identity {
            name: "N".into(),
            description: "D".into(),
            logo: "/files/uploads/l.png".into(),
            whatsapp: "5511987654321".into(),
            phone: "11 3333-4444".into(),
            email: "a@b.com".into(),
            address: "A".into(),
            hours: "H".into(),
            social: Social {
                instagram: "https://i".into(),
                facebook: "https://f".into(),
                tiktok: "https://t".into(),
                youtube: "https://y".into(),
                linkedin: "https://l".into(),
                x: "https://x".into(),
            },
        };
        for key in BINDING_KEYS {
            assert!(!id.value(key).is_empty(), "{key}");
        }
        assert_eq!(id.value("nope"), "");
    }
}
