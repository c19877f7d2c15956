//! The shipped templates belong to whoever uses them (issue 41): each carries its sample
//! business as `project_meta.identity` and its look as `project_meta.theme`, names that
//! business nowhere else (pages, blocks, descriptions, records: a site made under another name
//! must never show it), and leaves its blocks' colours to the theme.

use std::{collections::HashSet, fs, path::Path};

use serde_json::Value;

use super::{Findings, str_field, template_files};

/// The identity keys of the contract, and the social networks.
const IDENTITY: &[&str] = &[
    "name",
    "description",
    "logo",
    "whatsapp",
    "phone",
    "email",
    "address",
    "hours",
    "social",
];
const SOCIAL: &[&str] = &[
    "instagram",
    "facebook",
    "tiktok",
    "youtube",
    "linkedin",
    "x",
];
const THEME_COLOURS: &[&str] = &["primary", "accent", "background", "text"];

/// The families of the platform's font catalogue (what the dashboard offers).
fn catalogue() -> HashSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../dashboard/src/features/projects/fonts-catalogue.json");
    let all: Vec<Value> = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    all.iter()
        .filter_map(|f| str_field(f, "family").map(String::from))
        .collect()
}

fn is_hex_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// The forms of the business name a page must not show: the identity's name, its last two
/// words when it has more ("Grão Dourado"), and that pair run together as in an e-mail
/// domain ("graodourado"), compared case-insensitively.
fn forbidden(name: &str) -> Vec<String> {
    let mut out = vec![
        name.to_lowercase(),
        name.replace('&', "&amp;").to_lowercase(),
    ];
    let words: Vec<&str> = name
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .collect();
    let tail = &words[words.len().saturating_sub(2)..];
    if words.len() > 2 {
        out.push(tail.join(" ").to_lowercase());
    }
    let joined: String = tail
        .concat()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            'á' | 'à' | 'â' | 'ã' => Some('a'),
            'é' | 'ê' => Some('e'),
            'í' => Some('i'),
            'ó' | 'ô' | 'õ' => Some('o'),
            'ú' => Some('u'),
            'ç' => Some('c'),
            c if c.is_ascii_alphanumeric() => Some(c),
            _ => None,
        })
        .collect();
    if joined.len() > 5 {
        out.push(joined);
    }
    out
}

/// Every string of `v` with its JSON path, skipping `skip`.
fn strings<'a>(v: &'a Value, path: String, skip: &[&str], out: &mut Vec<(String, &'a str)>) {
    if skip.contains(&path.as_str()) {
        return;
    }
    match v {
        Value::String(s) => out.push((path, s)),
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| strings(x, format!("{path}.{k}"), skip, out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| strings(x, format!("{path}[{i}]"), skip, out)),
        _ => {}
    }
}

fn check_file(name: &str, data: &Value, fonts: &HashSet<String>, found: &mut Findings) {
    let meta = &data["project_meta"];
    let identity = &meta["identity"];
    let Some(id) = identity.as_object() else {
        return found.add(name, "project_meta.identity missing");
    };
    for k in id.keys().filter(|k| !IDENTITY.contains(&k.as_str())) {
        found.add(name, format!("identity has unknown key {k:?}"));
    }
    let business = str_field(identity, "name").unwrap_or_default();
    if business.trim().is_empty() {
        found.add(name, "identity.name is empty");
    }
    for k in SOCIAL {
        if !identity["social"][k].is_string() {
            found.add(name, format!("identity.social.{k} missing"));
        }
    }
    if let Some(w) = str_field(identity, "whatsapp")
        && !w.bytes().all(|b| b.is_ascii_digit())
    {
        found.add(name, "identity.whatsapp must be digits only");
    }
    let theme = &meta["theme"];
    for k in THEME_COLOURS {
        if !str_field(theme, k).is_some_and(|c| is_hex_colour(c) && c == c.to_lowercase()) {
            found.add(name, format!("theme.{k} must be a lower-case #rrggbb"));
        }
    }
    for k in ["headingFont", "bodyFont"] {
        let f = str_field(theme, k).unwrap_or_default();
        if !f.is_empty() && !fonts.contains(f) {
            found.add(
                name,
                format!("theme.{k} {f:?} is not in the font catalogue"),
            );
        }
    }
    // The business is named by its identity and the gallery's title only.
    let mut all = Vec::new();
    strings(
        data,
        "$".into(),
        &["$.name", "$.project_meta.identity"],
        &mut all,
    );
    let names = forbidden(business);
    for (at, s) in &all {
        let low = s.to_lowercase();
        if let Some(n) = names.iter().find(|n| low.contains(n.as_str())) {
            found.add(name, format!("{at} names the business ({n:?})"));
        }
    }
    // Blocks leave their colours to the theme.
    for page in data["pages"].as_array().into_iter().flatten() {
        for (i, b) in page["blocks"].as_array().into_iter().flatten().enumerate() {
            for (k, v) in b["vars"].as_object().into_iter().flatten() {
                let coloured = v.as_str().is_some_and(|s| s.starts_with('#'))
                    || (v
                        .get("type")
                        .is_some_and(|t| t == "solid" || t == "gradient")
                        && str_field(v, "color").is_some_and(|c| !c.is_empty()));
                if coloured {
                    found.add(
                        name,
                        format!(
                            "page {} block[{i}] ({}) sets colour {k}: leave it to the theme",
                            page["slug"], b["library"]
                        ),
                    );
                }
            }
        }
    }
}

#[test]
fn templates_carry_their_identity_and_theme_and_name_the_business_nowhere_else() {
    let fonts = catalogue();
    let mut found = Findings::default();
    let files = template_files();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let data: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        check_file(&name, &data, &fonts, &mut found);
    }
    found.assert_none();
}

#[test]
fn the_business_name_is_caught_in_its_usual_forms() {
    let names = forbidden("Padaria Grão Dourado");
    assert_eq!(
        names,
        [
            "padaria grão dourado",
            "padaria grão dourado",
            "grão dourado",
            "graodourado"
        ]
    );
    assert!(forbidden("Sal & Estrada").contains(&"sal &amp; estrada".to_string()));
}
