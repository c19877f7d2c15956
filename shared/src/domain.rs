//! Domain newtypes, parsed once at the edge of a handler ("parse, don't validate").
//! Each constructor returns the spec's own message on failure, so the API and the dashboard
//! show the same words. The test vectors in `testdata/validation.json` are shared with the
//! dashboard's unit tests.

use serde::Serialize;

pub use crate::error_code::{ErrorCode, Params};

/// A rejected value: which field, its stable code (the dashboard translates it), the English
/// message (the spec's own words where it gives them) and the values the message names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Invalid {
    pub field: &'static str,
    pub code: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Params::is_empty")]
    pub params: Params,
}

impl Invalid {
    pub fn new(field: &'static str, code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            field,
            code,
            message: message.into(),
            params: Params::new(),
        }
    }

    /// The same refusal with a value its message names (`max`, `char`, …).
    pub fn param(mut self, name: &str, value: impl Into<serde_json::Value>) -> Self {
        self.params.insert(name.to_string(), value.into());
        self
    }
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for Invalid {}

/// The spec's slug normalisation for records and pages: trimmed, accents removed,
/// lower-cased, anything outside `a-z 0-9 _ -` becomes a hyphen, repeated hyphens collapse.
/// Leading and trailing hyphens are dropped too, since a slug ending in `-` is never wanted.
///
/// Accents are removed by canonical decomposition and dropping U+0300–U+036F, which is
/// exactly what the dashboard does with `normalize('NFD')`, so both sides agree.
pub fn slugify(input: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut out = String::with_capacity(input.len());
    let mut last_dash = false;
    for c in input
        .trim()
        .nfd()
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
    {
        for lc in c.to_lowercase() {
            let keep = lc.is_ascii_lowercase() || lc.is_ascii_digit() || lc == '_';
            if keep {
                out.push(lc);
                last_dash = false;
            } else if !last_dash {
                out.push('-');
                last_dash = true;
            }
        }
    }
    out.trim_matches('-').to_string()
}

/// A page slug: leading and trailing slashes stripped, each path segment slugified,
/// empty segments dropped; the empty slug is the home page `/`.
pub fn normalize_page_slug(input: &str) -> String {
    let segments: Vec<String> = input
        .trim()
        .split('/')
        .map(slugify)
        .filter(|s| !s.is_empty())
        .collect();
    if segments.is_empty() {
        "/".to_string()
    } else {
        segments.join("/")
    }
}

/// A project's preview slug: the left-most label of `{slug}.{platform domain}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreviewSlug(String);

pub const PREVIEW_SLUG_MESSAGE: &str = "Slug must contain only letters, numbers and dashes";
pub const RESERVED_SLUG_MESSAGE: &str = "This address is reserved, please choose another";
/// The code of a reserved preview slug's refusal.
pub const SLUG_RESERVED: &str = "slug_reserved";

/// Preview slugs no tenant may take, because `{slug}.{platform domain}` would be one of:
/// - the platform's own hosts, today or likely tomorrow (the dashboard, the API, the CNAME
///   target `sites.`, the asset and status hosts, the platform's help, docs and blog);
/// - names that software and certificate authorities look up by convention, where a tenant's
///   page would be trusted for something else (`wpad` proxy discovery, `autodiscover` and
///   `autoconfig` mail set-up, `mta-sts` mail policy, `isatap`, mail and name servers);
/// - names that read as the platform in a phishing link (`login`, `account`, `billing`,
///   `secure`, `verify`…).
///
/// Besides these, any slug with `--` in its third and fourth characters is refused: DNS keeps
/// that shape for encoded labels (`xn--…` is punycode), which browsers may show as Unicode
/// lookalikes of another tenant or of the platform. The dashboard keeps the same list
/// (`dashboard/src/lib/validation.ts`); `testdata/validation.json` holds it for both tests.
pub const RESERVED_SLUGS: &[&str] = &[
    "abuse",
    "account",
    "accounts",
    "admin",
    "api",
    "app",
    "assets",
    "auth",
    "autoconfig",
    "autodiscover",
    "billing",
    "blog",
    "cdn",
    "console",
    "dashboard",
    "dns",
    "docs",
    "edge",
    "email",
    "files",
    "ftp",
    "help",
    "images",
    "imap",
    "img",
    "isatap",
    "localhost",
    "login",
    "logout",
    "mail",
    "media",
    "mta-sts",
    "mx",
    "ns",
    "ns1",
    "ns2",
    "pay",
    "payments",
    "pop",
    "pop3",
    "register",
    "secure",
    "security",
    "sftp",
    "signin",
    "signup",
    "sites",
    "smtp",
    "sso",
    "static",
    "status",
    "support",
    "uploads",
    "verify",
    "vitrine",
    "vpn",
    "webmail",
    "wpad",
    "www",
];

/// Whether a (lower-case) preview slug is one no tenant may take: see [`RESERVED_SLUGS`].
pub fn is_reserved_slug(slug: &str) -> bool {
    RESERVED_SLUGS.contains(&slug) || slug.get(2..4) == Some("--")
}

impl PreviewSlug {
    /// Letters, digits and dashes only (the spec's rule), and also a valid DNS label:
    /// at most 63 characters, not starting or ending with a dash, and not reserved
    /// ([`is_reserved_slug`], code [`SLUG_RESERVED`]). Stored lower-case, since host names are
    /// case-insensitive.
    pub fn parse(input: &str) -> Result<Self, Invalid> {
        let s = input.trim();
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(Invalid::new(
                "slug",
                ErrorCode::SlugInvalid,
                PREVIEW_SLUG_MESSAGE,
            ));
        }
        if s.len() > 63 {
            return Err(Invalid::new(
                "slug",
                ErrorCode::SlugTooLong,
                "Slug must be at most 63 characters",
            )
            .param("max", 63));
        }
        if s.starts_with('-') || s.ends_with('-') {
            return Err(Invalid::new(
                "slug",
                ErrorCode::SlugEdges,
                "Slug must start and end with a letter or number",
            ));
        }
        let s = s.to_ascii_lowercase();
        if is_reserved_slug(&s) {
            return Err(Invalid::new(
                "slug",
                ErrorCode::SlugReserved,
                RESERVED_SLUG_MESSAGE,
            ));
        }
        Ok(Self(s))
    }

    /// A preview slug derived from a project name, cut to leave room for a suffix. A name
    /// that slugifies to a reserved word gets `-site` after it (`Admin` → `admin-site`).
    pub fn from_name(name: &str) -> Self {
        let base: String = slugify(name).replace('_', "-").chars().take(40).collect();
        let base = base.trim_matches('-');
        if base.is_empty() {
            Self("site".to_string())
        } else if is_reserved_slug(base) {
            Self(format!("{base}-site"))
        } else {
            Self(base.to_string())
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// The other half of a `www.` pair: `www.example.com` ↔ `example.com`. A custom domain answers
/// for both, whichever of the two the owner verified.
pub fn www_twin(domain: &str) -> String {
    match domain.strip_prefix("www.") {
        Some(bare) => bare.to_string(),
        None => format!("www.{domain}"),
    }
}

/// The unit a name belongs to: the name without one leading `www.`. A name and its `www.` twin
/// are one unit, which one project at most holds (the database's `projects.domain_unit`
/// column computes the same and is unique), and the edge finds a host's site by its unit, so a
/// twin can never answer for anyone but the unit's holder.
pub fn domain_unit(name: &str) -> &str {
    name.strip_prefix("www.").unwrap_or(name)
}

/// The label under which an owner proves a domain: `_vitrine-challenge.<domain>` TXT
/// `<the project's token>`, as Vercel's `_vercel` record does.
pub const CHALLENGE_LABEL: &str = "_vitrine-challenge";

/// The TXT record's name that proves `domain`.
pub fn challenge_name(domain: &str) -> String {
    format!("{CHALLENGE_LABEL}.{domain}")
}

/// The TXT value that proves a domain for the project with this `uuid`. The uuid is random
/// (v4), unique per project and already public to whoever sees the project, so it is a fit
/// token: publishing it in DNS gives nothing away, and nobody can choose another's.
pub fn challenge_value(project_uuid: &str) -> String {
    format!("vitrine-verify={project_uuid}")
}

/// A custom domain such as `www.example.com`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DomainName(String);

pub const DOMAIN_MESSAGE: &str = "invalid domain";

impl DomainName {
    /// Letters, digits and dashes in two or more dot-separated labels (the spec's rule), each
    /// label 1–63 characters not starting or ending with a dash, 253 characters at most, and a
    /// last label with a letter in it (so an IP address is not a domain). Stored lower-case.
    pub fn parse(input: &str) -> Result<Self, Invalid> {
        let s = input.trim().to_ascii_lowercase();
        let invalid = || Invalid::new("domain", ErrorCode::DomainInvalid, DOMAIN_MESSAGE);
        if s.is_empty() || s.len() > 253 {
            return Err(invalid());
        }
        let labels: Vec<&str> = s.split('.').collect();
        if labels.len() < 2 {
            return Err(invalid());
        }
        for label in &labels {
            let ok = !label.is_empty()
                && label.len() <= 63
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-');
            if !ok {
                return Err(invalid());
            }
        }
        if !labels
            .last()
            .is_some_and(|l| l.chars().any(|c| c.is_ascii_alphabetic()))
        {
            return Err(invalid());
        }
        Ok(Self(s))
    }

    /// A domain as an owner pastes or types it: [`pasted_host`] first, then [`Self::parse`].
    /// `https://WWW.Loja.com.br/contato` is `www.loja.com.br`.
    pub fn from_input(input: &str) -> Result<Self, Invalid> {
        Self::parse(&pasted_host(input))
    }

    /// True when this is the platform domain or one of its sub-domains, which no customer
    /// may claim as their own.
    pub fn is_within(&self, platform_domain: &str) -> bool {
        let p = platform_domain.trim_end_matches('.').to_ascii_lowercase();
        self.0 == p || self.0.ends_with(&format!(".{p}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// The host of what an owner pasted where a domain goes: an address copied from the browser
/// (`https://www.loja.com.br/`), with a path, a port, a query, upper case or spaces around it.
/// It is read by the WHATWG URL parser (the `url` crate; the dashboard's `cleanDomainInput`
/// uses the browser's own `URL`, so both agree), which also lower-cases the host and writes an
/// internationalised name in its ASCII form (`café.com` is `xn--caf-dma.com`); a trailing dot
/// goes. What is no URL at all comes back trimmed, for [`DomainName::parse`] to refuse.
pub fn pasted_host(input: &str) -> String {
    let s = input.trim();
    let absolute = if s.contains("://") {
        s.to_string()
    } else {
        format!("http://{}", s.trim_start_matches('/'))
    };
    match url::Url::parse(&absolute) {
        Ok(u) if !s.is_empty() => match u.host_str() {
            Some(host) if !host.is_empty() => host.trim_end_matches('.').to_ascii_lowercase(),
            _ => s.to_string(),
        },
        _ => s.to_string(),
    }
}

/// An e-mail address, stored lower-case so uniqueness is case-insensitive on both databases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Email(String);

pub const EMAIL_MESSAGE: &str = "invalid e-mail";

impl Email {
    pub fn parse(input: &str) -> Result<Self, Invalid> {
        let s = input.trim().to_lowercase();
        let invalid = || Invalid::new("email", ErrorCode::EmailInvalid, EMAIL_MESSAGE);
        if s.len() > 254 {
            return Err(invalid());
        }
        let (local, domain) = s.split_once('@').ok_or_else(invalid)?;
        if local.is_empty()
            || local.len() > 64
            || local
                .chars()
                .any(|c| c.is_whitespace() || c == '@' || c.is_control())
        {
            return Err(invalid());
        }
        DomainName::parse(domain).map_err(|_| invalid())?;
        Ok(Self(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A required, trimmed, bounded piece of text such as a project or page name.
pub fn required_text(
    field: &'static str,
    value: Option<&str>,
    max: usize,
    code: ErrorCode,
    message: &str,
) -> Result<String, Invalid> {
    let v = value.unwrap_or("").trim();
    if v.is_empty() {
        return Err(Invalid::new(field, code, message));
    }
    if v.chars().count() > max {
        return Err(Invalid::new(
            field,
            ErrorCode::TooLong,
            format!("{field} must be at most {max} characters"),
        )
        .param("max", max));
    }
    Ok(v.to_string())
}

/// A new password: long enough to resist guessing, short enough not to make argon2 a
/// denial-of-service lever.
pub fn new_password(value: &str) -> Result<String, Invalid> {
    let n = value.chars().count();
    if n < 8 {
        return Err(Invalid::new(
            "password",
            ErrorCode::PasswordTooShort,
            "Password must be at least 8 characters",
        )
        .param("min", 8));
    }
    if value.len() > 256 {
        return Err(Invalid::new(
            "password",
            ErrorCode::PasswordTooLong,
            "Password must be at most 256 characters",
        )
        .param("max", 256));
    }
    Ok(value.to_string())
}

#[cfg(test)]
mod tests;
