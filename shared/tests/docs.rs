//! The documentation names only real things: every `VITRINE_*` variable in `README.md` and
//! `docs/` is a setting ([`SETTINGS_HELP`], which a unit test of `config.rs` holds equal to
//! `Settings`' fields, or `VITRINE_CONFIG`) or a variable the repository's code or scripts read,
//! and every repository file or folder they name exists.
//!
//! Nothing leads outside the repository, since a clone has nothing there: no link in any
//! committed Markdown file, and no relative path in a Markdown code span or a Rust doc
//! comment, climbs out of the root; the design document that once lived beside the repository
//! is cited nowhere by its old name (the design is `docs/design.md`); and a citation of a
//! section (`docs/design.md#a-visit`) names a heading that exists.
//!
//! What counts as "read" is found in the source tree itself (an `env::var("VITRINE_…")`, a clap
//! `env = "VITRINE_…"`, a shell `${VITRINE_…}`, Python's `os.environ.get("VITRINE_…")`, a
//! `process.env` lookup), so a variable removed from the code fails here until the docs follow.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
};

use vitrine_shared::config::SETTINGS_HELP;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is in the workspace")
        .to_path_buf()
}

/// The documents checked: the README and everything under `docs/`.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md")];
    docs.extend(files_under(&root.join("docs"), &["md"]));
    docs
}

/// Files under `dir` with one of `extensions`, skipping build output and installed packages.
fn files_under(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if matches!(
                name.to_str(),
                Some("target" | "node_modules" | "dist" | ".git")
            ) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(&e))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every `VITRINE_` name in `text`, with the byte offset where it starts.
fn vitrine_names(text: &str) -> Vec<(usize, String)> {
    text.match_indices("VITRINE_")
        .filter(|(at, _)| {
            !text[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .map(|(at, prefix)| {
            let rest: String = text[at + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            (at, rest.trim_end_matches('_').to_string())
        })
        .filter(|(_, name)| !name.is_empty())
        .collect()
}

/// The `VITRINE_*` names (without the prefix) the code and scripts read from the environment.
fn names_read_by_code(root: &Path) -> BTreeSet<String> {
    // What stands right before the name (whitespace removed) when the environment is read.
    const READS: &[&str] = &[
        "var(\"",
        "var_os(\"",
        "env=\"",
        "${",
        "environ.get(\"",
        "environ[\"",
        "getenv(\"",
        "process.env.",
        "process.env['",
        "process.env[\"",
    ];
    let mut read = BTreeSet::new();
    let dirs = [
        "shared",
        "control-plane",
        "edge",
        "benches",
        "fuzz",
        "scripts",
        "infra",
        "dashboard",
    ];
    for dir in dirs {
        for file in files_under(&root.join(dir), &["rs", "sh", "py", "ts", "tsx", "mjs"]) {
            let Ok(text) = fs::read_to_string(&file) else {
                continue;
            };
            // A TypeScript helper may take the variable's name as an argument and look it up
            // with `process.env[variable]`: in such a file a quoted name is read.
            let looks_up_by_name = text.contains("process.env[");
            for (at, name) in vitrine_names(&text) {
                let before: String = text[..at]
                    .chars()
                    .rev()
                    .take(40)
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let quoted = before.ends_with('\'') || before.ends_with('"');
                if READS.iter().any(|r| before.ends_with(r)) || (looks_up_by_name && quoted) {
                    read.insert(name);
                }
            }
        }
    }
    read
}

/// The real names: every setting, `CONFIG` (the `--config` flag's variable) and what the code
/// reads.
fn real_names(root: &Path) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = SETTINGS_HELP.iter().map(|(n, _)| n.to_string()).collect();
    names.insert("CONFIG".into());
    names.extend(names_read_by_code(root));
    names
}

/// The spans between backticks (inline code and fenced blocks) of a Markdown text.
fn code_spans(text: &str) -> Vec<&str> {
    let mut spans = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|c| *c == '`').count();
        let fence = &rest[start..start + ticks];
        let body = &rest[start + ticks..];
        let Some(end) = body.find(fence) else {
            break;
        };
        spans.push(&body[..end]);
        rest = &body[end + ticks..];
    }
    spans
}

/// Relative link targets of a Markdown text (`[text](target)`), anchors removed.
fn link_targets(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let target = &text[at + 2..];
            let target = &target[..target.find(')')?];
            let target = target.split('#').next()?;
            let external = target.contains("://") || target.starts_with("mailto:");
            (!target.is_empty() && !external).then_some(target)
        })
        .collect()
}

/// The top-level entries of the repository that a path may start with: everything in its root
/// but what the root `.gitignore` leaves out (`target`, `data`, …).
fn top_level(root: &Path) -> BTreeSet<String> {
    let ignored: BTreeSet<String> = fs::read_to_string(root.join(".gitignore"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix('/'))
        .map(|l| l.trim_end_matches('/').to_string())
        .collect();
    fs::read_dir(root)
        .expect("the repository root is readable")
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !ignored.contains(n) && n != ".git")
        .collect()
}

/// What is wrong with one document: names that are not real, paths that do not exist.
fn problems(doc: &Path, text: &str, root: &Path, real: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    let shown = doc.strip_prefix(root).unwrap_or(doc).display();

    for (_, name) in vitrine_names(text) {
        if !real.contains(&name) {
            out.push(format!(
                "{shown}: VITRINE_{name} is neither a setting nor read by the code"
            ));
        }
    }
    // `VITRINE_EDGE_HTTP_LISTEN`, `_HTTPS_LISTEN`: a suffix continues the last full name on its
    // line, cut at one of its underscores.
    for line in text.lines() {
        let mut last: Option<String> = None;
        for span in code_spans(line) {
            if let Some((_, name)) = vitrine_names(span).into_iter().last() {
                last = Some(name);
            } else if let Some(suffix) = span.strip_prefix('_').filter(|s| {
                !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            }) {
                let known = last.as_deref().is_some_and(|full| {
                    std::iter::once("")
                        .chain(full.match_indices('_').map(|(i, _)| &full[..i]))
                        .any(|stem| {
                            let candidate = if stem.is_empty() {
                                suffix.to_string()
                            } else {
                                format!("{stem}_{suffix}")
                            };
                            real.contains(&candidate)
                        })
                });
                if !known {
                    out.push(format!(
                        "{shown}: `_{suffix}` continues no setting on its line"
                    ));
                }
            }
        }
    }

    let top = top_level(root);
    for span in code_spans(text) {
        for word in span.split_whitespace() {
            let word = word.trim_matches(|c: char| "()[],;:\"'".contains(c));
            // A section (`docs/design.md#a-visit`) is its file's: [`missing_sections`].
            let word = word.split('#').next().unwrap_or_default();
            let first = word.split('/').next().unwrap_or_default();
            if !top.contains(first) {
                continue;
            }
            // A pattern (`templates/*.json`) names its folder.
            let path = match word.find(['*', '{', '<', '…']) {
                Some(i) => &word[..word[..i].rfind('/').map_or(0, |j| j + 1)],
                None => word,
            };
            if !root.join(path).exists() {
                out.push(format!(
                    "{shown}: `{word}` does not exist in the repository"
                ));
            }
        }
    }
    // A link is relative to its document; one that leaves the repository is refused by
    // [`outside`], for every Markdown file.
    let dir = doc
        .parent()
        .unwrap_or(root)
        .strip_prefix(root)
        .unwrap_or(Path::new(""));
    for target in link_targets(text) {
        if let Some(path) = inside_repository(dir, target)
            && !root.join(&path).exists()
        {
            out.push(format!("{shown}: link to {target}, which does not exist"));
        }
    }
    out
}

/// `target` relative to `dir` (both inside the repository), or `None` if it leaves it.
fn inside_repository(dir: &Path, target: &str) -> Option<PathBuf> {
    let mut parts: Vec<&str> = dir.iter().filter_map(|p| p.to_str()).collect();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.iter().collect())
}

/// How the old design document beside the repository was cited: by its file name, or as
/// "§N" of it. Built from pieces so that this file's own doc comments do not cite it.
fn old_design_citations() -> [String; 2] {
    let name = ["DESIGN", ".md"].concat();
    let section = ["DESIGN", " §"].concat();
    [name, section]
}

/// What in one file's text leads outside the repository. `dir` is the file's folder, relative
/// to the root; `text` is a Markdown document, or a Rust file's doc comments ([`doc_comments`],
/// `rust`), whose `[text](target)`s are intra-doc links unless they hold a `/`.
/// - a link whose target climbs out of the root from `dir`;
/// - a code span's word that starts with `../` and climbs out of the root from `dir`;
/// - a citation of the old design document by its name.
fn outside(shown: &str, dir: &Path, text: &str, rust: bool) -> Vec<String> {
    let mut out = Vec::new();
    for target in link_targets(text) {
        if rust && !target.contains('/') {
            continue;
        }
        if inside_repository(dir, target).is_none() {
            out.push(format!(
                "{shown}: link to {target}, which leaves the repository"
            ));
        }
    }
    for span in code_spans(text) {
        for word in span.split_whitespace() {
            let word = word.trim_matches(|c: char| "()[],;:\"'".contains(c));
            if word.starts_with("../") && inside_repository(dir, word).is_none() {
                out.push(format!("{shown}: `{word}` leaves the repository"));
            }
        }
    }
    for old in old_design_citations() {
        if text.contains(&old) {
            out.push(format!(
                "{shown}: cites {}, which is not in the repository: cite docs/design.md and its \
                 section",
                old.trim_end()
            ));
        }
    }
    out
}

/// The anchors of a Markdown document's headings, as GitHub makes them: lower case, spaces as
/// `-`, and every character but letters, digits, `-` and `_` dropped.
fn heading_anchors(markdown: &str) -> BTreeSet<String> {
    markdown
        .lines()
        .filter(|l| l.starts_with('#'))
        .filter_map(|l| l.trim_start_matches('#').strip_prefix(' '))
        .map(|title| {
            title
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Citations of a section (`file.md#anchor`) whose file is in the repository but has no such
/// heading: links, relative to `dir`, and code-span words, relative to the root.
fn missing_sections(shown: &str, dir: &Path, text: &str, root: &Path) -> Vec<String> {
    let mut cited: Vec<(PathBuf, &str)> = Vec::new();
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = &rest[..end];
        if let Some((file, anchor)) = target.split_once('#')
            && file.ends_with(".md")
            && !file.contains("://")
            && let Some(path) = inside_repository(dir, file)
        {
            cited.push((path, anchor));
        }
    }
    for span in code_spans(text) {
        for word in span.split_whitespace() {
            let word = word.trim_matches(|c: char| "()[],;:\"'".contains(c));
            if let Some((file, anchor)) = word.split_once('#')
                && file.ends_with(".md")
                && let Some(path) = inside_repository(Path::new(""), file)
            {
                cited.push((path, anchor));
            }
        }
    }
    cited
        .into_iter()
        .filter_map(|(path, anchor)| {
            let doc = fs::read_to_string(root.join(&path)).ok()?;
            (!heading_anchors(&doc).contains(anchor)).then(|| {
                format!(
                    "{shown}: {}#{anchor} names no heading of {}",
                    path.display(),
                    path.display()
                )
            })
        })
        .collect()
}

/// A Rust file's doc comments (`//!` and `///` lines), without their markers.
fn doc_comments(code: &str) -> String {
    code.lines()
        .map(str::trim_start)
        .filter(|l| (l.starts_with("//!") || l.starts_with("///")) && !l.starts_with("////"))
        .map(|l| &l[3..])
        .collect::<Vec<_>>()
        .join("\n")
}

/// The repository's files with one of `extensions`: under its top-level entries (what the
/// root `.gitignore` leaves out is not the repository's), without test output.
fn repository_files(root: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in top_level(root) {
        let path = root.join(&entry);
        if path.is_dir() {
            out.extend(files_under(&path, extensions));
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            out.push(path);
        }
    }
    out.retain(|p| !p.components().any(|c| c.as_os_str() == "test-results"));
    out.sort();
    out
}

#[test]
fn no_document_or_doc_comment_leads_outside_the_repository() {
    let root = root();
    let markdown = repository_files(&root, &["md"]);
    let rust = repository_files(&root, &["rs"]);
    assert!(
        markdown.len() > 10 && rust.len() > 100,
        "the walk found the files ({} Markdown, {} Rust)",
        markdown.len(),
        rust.len()
    );
    let mut all = Vec::new();
    for file in markdown.iter().chain(&rust) {
        let rel = file.strip_prefix(&root).expect("under the root");
        let dir = rel.parent().unwrap_or(Path::new(""));
        let shown = rel.display().to_string();
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{shown}: {e}"));
        let is_rust = rel.extension().is_some_and(|e| e == "rs");
        let text = if is_rust { doc_comments(&text) } else { text };
        all.extend(outside(&shown, dir, &text, is_rust));
        all.extend(missing_sections(&shown, dir, &text, &root));
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// The check above can fail: a link and a path that climb out of the repository, the old
/// design document's citations, and a section that does not exist are each named.
#[test]
fn a_link_or_citation_outside_the_repository_is_refused() {
    let root = root();
    let markdown = [
        "See [the design](../shared/spec/a.md) and `../shared/x.toml` (or `../docs/ok.md`).",
        "[Fine](docs/design.md#a-visit), [no such section](docs/design.md#nowhere).",
        &format!("As {} says.", old_design_citations()[0]),
    ]
    .join("\n");
    assert_eq!(
        [
            outside("README.md", Path::new(""), &markdown, false),
            missing_sections("README.md", Path::new(""), &markdown, &root),
        ]
        .concat(),
        [
            "README.md: link to ../shared/spec/a.md, which leaves the repository",
            "README.md: `../shared/x.toml` leaves the repository",
            "README.md: `../docs/ok.md` leaves the repository",
            "README.md: cites DESIGN.md, which is not in the repository: cite docs/design.md and \
             its section",
            "README.md: docs/design.md#nowhere names no heading of docs/design.md",
        ]
    );
    // From `dashboard/`, `../docs/ok.md` is the repository's own `docs/`.
    assert!(
        outside(
            "dashboard/README.md",
            Path::new("dashboard"),
            "`../docs/x.md`",
            false
        )
        .is_empty()
    );

    let code = [
        "//! Built as [`Store`](crate::store::Store) says (`docs/design.md#publishing`),",
        &format!("//! in the order {}3 gives; see [there](../../../notes.md).", old_design_citations()[1]),
        "/// `../../README.md` is the repository's README, `docs/design.md#missing` is not a section.",
        "fn f() {} // `../../../outside.md` in a plain comment is not documentation.",
    ]
    .join("\n");
    let docs = doc_comments(&code);
    assert_eq!(
        [
            outside("edge/src/visit.rs", Path::new("edge/src"), &docs, true),
            missing_sections("edge/src/visit.rs", Path::new("edge/src"), &docs, &root),
        ]
        .concat(),
        [
            "edge/src/visit.rs: link to ../../../notes.md, which leaves the repository",
            "edge/src/visit.rs: cites DESIGN §, which is not in the repository: cite docs/design.md \
             and its section",
            "edge/src/visit.rs: docs/design.md#missing names no heading of docs/design.md",
        ]
    );
}

#[test]
fn the_readme_and_docs_name_only_real_settings_and_paths() {
    let root = root();
    let real = real_names(&root);
    let mut all = Vec::new();
    for doc in documents(&root) {
        let text = fs::read_to_string(&doc).unwrap();
        all.extend(problems(&doc, &text, &root, &real));
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn a_made_up_setting_or_path_is_found() {
    let root = root();
    let real = real_names(&root);
    let doc = root.join("README.md");
    let text = "Set `VITRINE_NO_SUCH_SETTING` (or `VITRINE_DATA_DIR`, `_NO_SUCH_SUFFIX`) and read \
                `docs/no-such-file.md`, `shared/src/config/mod.rs` and [it](docs/missing.png).";
    let found = problems(&doc, text, &root, &real);
    assert_eq!(
        found,
        [
            "README.md: VITRINE_NO_SUCH_SETTING is neither a setting nor read by the code",
            "README.md: `_NO_SUCH_SUFFIX` continues no setting on its line",
            "README.md: `docs/no-such-file.md` does not exist in the repository",
            "README.md: link to docs/missing.png, which does not exist",
        ]
    );
}

#[test]
fn settings_and_the_variables_the_code_reads_are_real() {
    let real = real_names(&root());
    for name in [
        "DATA_DIR",
        "CONFIG",
        "TEST_POSTGRES_URL",
        "EDGE_HTTPS_LISTEN",
    ] {
        assert!(real.contains(name), "{name}");
    }
}
