//! Redirect rules: validation with the spec's messages, and the matcher the edge compiles once
//! per deploy (`docs/design.md#redirects`).
//!
//! - Origins are normalised: a leading slash, no trailing slash (`/home` also matches `/home/`).
//! - Exact origins win over wildcard origins; among wildcards the longest literal prefix wins,
//!   so the order rules were added in never matters.
//! - `/news/*` also matches `/news` itself; `*` alone redirects the whole site.
//! - A `*` in the destination takes what the origin's `*` matched (the splat). The splat is
//!   a path: it is percent-encoded (so `?`, `#` and `%` stay in the path), it never turns a
//!   relative destination into `//host` (a scheme-relative URL, which browsers follow to
//!   another site), and a `*` inside an absolute destination's host is refused when saved and
//!   ignored in rules saved before: a visitor never picks the host a site redirects to.
//! - The request's query string is carried to the destination; the status is 301.
//!
//! Matching costs a hash lookup per prefix of the request path, so it does not grow with the
//! number of rules (a migrated site can have tens of thousands).

use std::{borrow::Cow, collections::HashMap};

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

use crate::domain::{ErrorCode, Invalid};

/// What is percent-encoded in a splat: what cannot stand in a URL path as itself, and `?`,
/// `#` and `%`, which would end the path or start an escape. `/` stays.
const SPLAT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// Where the host part of an absolute destination ends (after `scheme://`), if it is one.
fn authority_end(to: &str) -> Option<usize> {
    let rest = to
        .strip_prefix("http://")
        .or_else(|| to.strip_prefix("https://"))?;
    let start = to.len() - rest.len();
    Some(start + rest.find(['/', '?', '#']).unwrap_or(rest.len()))
}

/// A destination whose `*` can only land in its path: stars in an absolute destination's host
/// are dropped (rules saved before [`parse_destination`] refused them).
fn splat_in_path_only(to: &str) -> Cow<'_, str> {
    match authority_end(to) {
        Some(end) if to[..end].contains('*') => {
            Cow::Owned(format!("{}{}", to[..end].replace('*', ""), &to[end..]))
        }
        _ => Cow::Borrowed(to),
    }
}

pub const MAX_URL: usize = 255;
/// The most redirect rules one project may have. Every edge loads a project's rules whole
/// (compiled into a [`Matcher`]) and publishes carry them in the manifest, so the count is what
/// keeps one tenant from filling the shared caches and the database: 2,000 rules of the
/// longest origin and destination take about 1 MB, half of `manifest::MAX_MANIFEST_BYTES`.
pub const MAX_RULES: i64 = 2_000;
pub const NO_SPACES: &str = "A url não pode ter espaços.";
pub const SAME_URL: &str = "URL destino deve ser diferente da url de origem";
pub const WHOLE_SITE_WARNING: &str = "Atenção: a url * redireciona o site inteiro.";

fn invalid_char(field: &'static str, c: char) -> Invalid {
    Invalid::new(
        field,
        ErrorCode::RedirectBadChar,
        format!("A url contém o carectere \"{c}\" inválido."),
    )
    .param("char", c.to_string())
}

fn too_long(field: &'static str) -> Invalid {
    Invalid::new(
        field,
        ErrorCode::RedirectTooLong,
        format!("A url pode ter no máximo {MAX_URL} caracteres."),
    )
    .param("max", MAX_URL)
}

/// An origin path: required, no spaces, only letters, digits and `. _ / * -`, at most 255
/// characters, with `*` only at the end. Returned normalised.
pub fn parse_origin(raw: &str) -> Result<String, Invalid> {
    let s = raw.trim();
    if s.is_empty() {
        return Err(Invalid::new(
            "from",
            ErrorCode::RedirectFromRequired,
            "A url de origem é obrigatória.",
        ));
    }
    if s.chars().any(char::is_whitespace) {
        return Err(Invalid::new("from", ErrorCode::RedirectNoSpaces, NO_SPACES));
    }
    if let Some(c) = s
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '*' | '-')))
    {
        return Err(invalid_char("from", c));
    }
    if s.chars().count() > MAX_URL {
        return Err(too_long("from"));
    }
    if let Some(i) = s.find('*')
        && i != s.len() - 1
    {
        return Err(Invalid::new(
            "from",
            ErrorCode::RedirectFromStar,
            "O * só pode aparecer no final da url.",
        ));
    }
    Ok(normalize_origin(s))
}

/// A leading slash, repeated slashes collapsed, no trailing slash except on `/` and before `*`.
pub fn normalize_origin(s: &str) -> String {
    if s == "*" {
        return "*".into();
    }
    let mut out = String::with_capacity(s.len() + 1);
    for c in std::iter::once('/').chain(s.chars()) {
        if c == '/' && out.ends_with('/') {
            continue;
        }
        out.push(c);
    }
    if out.len() > 1 && out.ends_with('/') {
        out.pop();
    }
    out
}

/// A destination: required, no spaces, at most 255 characters; a path or an http(s) URL.
pub fn parse_destination(raw: &str) -> Result<String, Invalid> {
    let s = raw.trim();
    if s.is_empty() {
        return Err(Invalid::new(
            "to",
            ErrorCode::RedirectToRequired,
            "A url de destino é obrigatória.",
        ));
    }
    if s.chars().any(char::is_whitespace) {
        return Err(Invalid::new("to", ErrorCode::RedirectNoSpaces, NO_SPACES));
    }
    if s.chars().count() > MAX_URL {
        return Err(too_long("to"));
    }
    let absolute = s.starts_with("http://") || s.starts_with("https://");
    if absolute {
        url::Url::parse(s).map_err(|_| {
            Invalid::new(
                "to",
                ErrorCode::RedirectToInvalid,
                "URL de destino inválida.",
            )
        })?;
        if authority_end(s).is_some_and(|end| s[..end].contains('*')) {
            return Err(Invalid::new(
                "to",
                ErrorCode::RedirectToStar,
                "O * só pode aparecer no caminho da url de destino.",
            ));
        }
        Ok(s.to_string())
    } else if let Some(c) = s
        .chars()
        .find(|c| c.is_control() || matches!(c, '<' | '>' | '"' | '\\' | '`'))
    {
        Err(invalid_char("to", c))
    } else {
        Ok(normalize_origin(s))
    }
}

/// A validated rule; `warning` is set for `*`, which redirects the whole site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub from: String,
    pub to: String,
    pub warning: Option<&'static str>,
}

/// Validates a rule as it is saved; a rule that would redirect to itself is refused.
pub fn parse_rule(from: &str, to: &str) -> Result<Rule, Invalid> {
    let from = parse_origin(from)?;
    let to = parse_destination(to)?;
    if from == to || (!from.ends_with('*') && normalize_origin(&to) == from) {
        return Err(Invalid::new("to", ErrorCode::RedirectSame, SAME_URL));
    }
    let warning = (from == "*").then_some(WHOLE_SITE_WARNING);
    Ok(Rule { from, to, warning })
}

/// Where a request goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub status: u16,
    pub location: String,
}

/// Rules compiled for matching. Build once per deploy; it is immutable and cheap to share.
#[derive(Debug, Default, Clone)]
pub struct Matcher {
    exact: HashMap<String, String>,
    /// Literal prefix (everything before `*`) → destination.
    prefix: HashMap<String, String>,
    /// Distinct prefix lengths, longest first, so lookups only try lengths that exist.
    prefix_lengths: Vec<usize>,
}

impl Matcher {
    /// About what the matcher holds in memory, in bytes (for a cache's weigher).
    pub fn weight(&self) -> u32 {
        let bytes: usize = self
            .exact
            .iter()
            .chain(self.prefix.iter())
            .map(|(from, to)| from.len() + to.len() + 64)
            .sum();
        u32::try_from(bytes + 64).unwrap_or(u32::MAX)
    }

    /// Compiles `(from, to)` pairs, already validated. Later duplicates of an origin are ignored.
    pub fn new<'a>(rules: impl IntoIterator<Item = (&'a str, &'a str)>) -> Matcher {
        let mut m = Matcher::default();
        for (from, to) in rules {
            // `*` alone is the whole site: the splat is the path after its leading slash.
            let from = if from.trim() == "*" {
                "/*".to_string()
            } else {
                normalize_origin(from)
            };
            let to = splat_in_path_only(to);
            match from.strip_suffix('*') {
                Some(literal) => {
                    m.prefix
                        .entry(literal.to_string())
                        .or_insert_with(|| to.into_owned());
                }
                None => {
                    m.exact.entry(from).or_insert_with(|| to.into_owned());
                }
            }
        }
        let mut lengths: Vec<usize> = m.prefix.keys().map(String::len).collect();
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths.dedup();
        m.prefix_lengths = lengths;
        m
    }

    pub fn len(&self) -> usize {
        self.exact.len() + self.prefix.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The redirect for a request path and query string (without `?`), if any rule matches.
    pub fn lookup(&self, path: &str, query: Option<&str>) -> Option<Redirect> {
        let path = if path.is_empty() { "/" } else { path };
        let trimmed = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            path
        };
        let trimmed = if trimmed.is_empty() { "/" } else { trimmed };
        let (to, splat) = if let Some(to) = self.exact.get(trimmed) {
            (to, "")
        } else {
            self.wildcard(path, trimmed)?
        };
        let mut location = if splat.is_empty() || !to.contains('*') {
            to.replace('*', "")
        } else {
            to.replace('*', &utf8_percent_encode(splat, SPLAT).to_string())
        };
        // A relative destination stays on the site: `/*` with the splat `/evil.example` would
        // be `//evil.example`, which browsers read as another host.
        if location.starts_with("//") {
            location = format!("/{}", location.trim_start_matches('/'));
        }
        if let Some(q) = query.filter(|q| !q.is_empty()) {
            location.push(if location.contains('?') { '&' } else { '?' });
            location.push_str(q);
        }
        Some(Redirect {
            status: 301,
            location,
        })
    }

    fn wildcard<'a>(&'a self, path: &'a str, trimmed: &str) -> Option<(&'a String, &'a str)> {
        if self.prefix.is_empty() {
            return None;
        }
        // `/news/*` also matches `/news` itself.
        if let Some(to) = self.prefix.get(&format!("{trimmed}/")) {
            return Some((to, ""));
        }
        for &len in &self.prefix_lengths {
            if len <= path.len()
                && path.is_char_boundary(len)
                && let Some(to) = self.prefix.get(&path[..len])
            {
                return Some((to, &path[len..]));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors() -> serde_json::Value {
        serde_json::from_str(include_str!("../testdata/validation.json")).unwrap()
    }

    #[test]
    fn matching_follows_the_shared_vectors() {
        let v = vectors();
        let rules: Vec<(String, String)> = v["redirects"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r[0].as_str().unwrap().to_string(),
                    r[1].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let m = Matcher::new(rules.iter().map(|(a, b)| (a.as_str(), b.as_str())));
        for case in v["redirects"]["cases"].as_array().unwrap() {
            let (path, query, want) = (
                case[0].as_str().unwrap(),
                case[1].as_str(),
                case[2].as_str(),
            );
            let got = m.lookup(path, query);
            assert_eq!(
                got.as_ref().map(|r| r.location.as_str()),
                want,
                "{path} ? {query:?}"
            );
            if let Some(r) = got {
                assert_eq!(r.status, 301);
            }
        }
    }

    #[test]
    fn origins_follow_the_shared_vectors() {
        let v = vectors();
        for pair in v["redirect_origin"]["valid"].as_array().unwrap() {
            assert_eq!(
                parse_origin(pair[0].as_str().unwrap()).unwrap(),
                pair[1].as_str().unwrap()
            );
        }
        for pair in v["redirect_origin"]["invalid"].as_array().unwrap() {
            assert_eq!(
                parse_origin(pair[0].as_str().unwrap()).unwrap_err().message,
                pair[1].as_str().unwrap()
            );
        }
    }

    #[test]
    fn rules_follow_the_shared_vectors() {
        let v = vectors();
        let text = |x: &serde_json::Value| x.as_str().unwrap().to_string();
        for case in v["redirect_rule"]["valid"].as_array().unwrap() {
            let rule = parse_rule(&text(&case[0]), &text(&case[1])).unwrap();
            assert_eq!(rule.from, text(&case[2]), "{case}");
            assert_eq!(rule.to, text(&case[3]), "{case}");
            assert_eq!(rule.warning, case[4].as_str(), "{case}");
        }
        for case in v["redirect_rule"]["invalid"].as_array().unwrap() {
            let err = parse_rule(&text(&case[0]), &text(&case[1])).unwrap_err();
            assert_eq!(err.field, text(&case[2]), "{case}");
            assert_eq!(err.message, text(&case[3]), "{case}");
        }
    }

    #[test]
    fn the_order_rules_were_added_in_never_matters() {
        let a = Matcher::new([
            ("/a/*", "/one/*"),
            ("/a/b/*", "/two/*"),
            ("/a/b/c", "/three"),
        ]);
        let b = Matcher::new([
            ("/a/b/c", "/three"),
            ("/a/b/*", "/two/*"),
            ("/a/*", "/one/*"),
        ]);
        for path in ["/a/x", "/a/b/x", "/a/b/c", "/a/b", "/a"] {
            assert_eq!(a.lookup(path, None), b.lookup(path, None), "{path}");
        }
        assert_eq!(a.lookup("/a/b/c", None).unwrap().location, "/three");
        assert_eq!(a.lookup("/a/b/x", None).unwrap().location, "/two/x");
    }

    #[test]
    fn a_matchers_weight_grows_with_its_rules_bytes() {
        let short = Matcher::new([("/a", "/b")]);
        let long_from = "/".to_string() + &"x".repeat(250);
        let long = Matcher::new([(long_from.as_str(), "/b"), ("/docs/*", "/d/:splat")]);
        assert!(short.weight() >= 64 + 4);
        assert!(
            long.weight() > short.weight() + 250,
            "{} vs {}",
            long.weight(),
            short.weight()
        );
    }

    #[test]
    fn a_lone_star_redirects_the_whole_site_after_more_specific_rules() {
        let m = Matcher::new([("*", "https://novo.example.com/*"), ("/fica", "/aqui")]);
        assert_eq!(
            m.lookup("/qualquer/coisa", Some("a=1")).unwrap().location,
            "https://novo.example.com/qualquer/coisa?a=1"
        );
        assert_eq!(
            m.lookup("/", None).unwrap().location,
            "https://novo.example.com/"
        );
        assert_eq!(m.lookup("/fica", None).unwrap().location, "/aqui");
    }

    #[test]
    fn origins_are_validated_with_the_spec_messages() {
        assert_eq!(parse_origin("/a b").unwrap_err().message, NO_SPACES);
        assert_eq!(
            parse_origin("/a?b").unwrap_err().message,
            "A url contém o carectere \"?\" inválido."
        );
        assert_eq!(
            parse_origin("/ação").unwrap_err().message,
            "A url contém o carectere \"ç\" inválido."
        );
        assert!(parse_origin(&format!("/{}", "a".repeat(255))).is_err());
        assert!(parse_origin("/a/*/b").is_err());
        assert_eq!(parse_origin("home/").unwrap(), "/home");
        assert_eq!(parse_origin("//news//*").unwrap(), "/news/*");
        assert_eq!(parse_origin("*").unwrap(), "*");
        assert_eq!(parse_rule("/a", "/a").unwrap_err().message, SAME_URL);
        assert_eq!(parse_rule("/a/", "a").unwrap_err().message, SAME_URL);
        assert_eq!(
            parse_rule("*", "https://x.example/").unwrap().warning,
            Some(WHOLE_SITE_WARNING)
        );
        assert!(parse_rule("/a", "https://x.example/b?c=d").is_ok());
        assert_eq!(parse_destination("/a b").unwrap_err().message, NO_SPACES);
        assert!(parse_destination("javascript:alert(1)").is_ok_and(|d| d.starts_with('/')));
        assert!(parse_destination("").is_err());
    }

    #[test]
    fn a_splat_never_sends_a_visitor_to_another_host() {
        let m = Matcher::new([
            ("/go/*", "/*"),
            ("/out/*", "https://docs.example.com/*"),
            ("*", "/novo/*"),
        ]);
        let at = |path: &str| m.lookup(path, None).unwrap().location;
        assert_eq!(at("/go//evil.example"), "/evil.example");
        assert_eq!(at("/go///evil.example/x"), "/evil.example/x");
        assert_eq!(at("/go/\\evil.example"), "/%5Cevil.example");
        assert_eq!(at("/go/a?b#c"), "/a%3Fb%23c");
        assert_eq!(at("/go/pão%"), "/p%C3%A3o%25");
        assert_eq!(
            at("/out/@evil.example"),
            "https://docs.example.com/@evil.example"
        );
        assert_eq!(at("//evil.example"), "/novo//evil.example");
        // A star in a host, saved before it was refused, never takes the splat.
        let old = Matcher::new([("/x*", "https://loja*.example.com/*")]);
        assert_eq!(
            old.lookup("/x.evil.example/a", None).unwrap().location,
            "https://loja.example.com/.evil.example/a"
        );
        assert_eq!(
            parse_destination("https://loja*.example.com/")
                .unwrap_err()
                .message,
            "O * só pode aparecer no caminho da url de destino."
        );
        assert!(parse_destination("https://loja.example.com/*").is_ok());
    }

    #[test]
    fn lookups_do_not_depend_on_the_number_of_rules() {
        let rules: Vec<(String, String)> = (0..50_000)
            .map(|i| (format!("/produto-antigo-{i}"), format!("/produtos/{i}")))
            .chain((0..5_000).map(|i| (format!("/categoria-{i}/*"), format!("/c/{i}/*"))))
            .collect();
        let m = Matcher::new(rules.iter().map(|(a, b)| (a.as_str(), b.as_str())));
        assert_eq!(m.len(), 55_000);
        assert_eq!(
            m.lookup("/produto-antigo-49999", None).unwrap().location,
            "/produtos/49999"
        );
        assert_eq!(
            m.lookup("/categoria-4321/sapatos", None).unwrap().location,
            "/c/4321/sapatos"
        );
        // Only as many prefix lengths as there are distinct ones are ever tried.
        assert!(m.prefix_lengths.len() <= 5);
    }
}

/// The fuzz target `redirect_origin`'s invariants (see `fuzz/`), on generated inputs in every
/// test run: no input panics, an accepted origin is stable under re-parsing, and a rule built
/// from what was accepted can be matched against its own origin and destination.
#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Origins and destinations built from the characters the parser treats specially.
    fn sides() -> impl Strategy<Value = String> {
        prop_oneof![
            "[/a-zA-Z0-9*?&=#%.: -]{0,40}",
            "(https?://[a-z.]{1,10})?(/[a-z*]{0,6}){0,4}/?(\\?[a-z=&*]{0,8})?",
            any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn accepted_rules_are_stable_and_never_panic(from in sides(), to in sides()) {
            if let Ok(origin) = parse_origin(&from) {
                let again = parse_origin(&origin);
                prop_assert_eq!(again.as_deref(), Ok(origin.as_str()));
            }
            let _ = parse_destination(&to);
            if let Ok(rule) = parse_rule(&from, &to) {
                let m = Matcher::new([(rule.from.as_str(), rule.to.as_str())]);
                let _ = m.lookup(&from, Some("a=1"));
                let _ = m.lookup(&to, None);
            }
        }
    }
}
