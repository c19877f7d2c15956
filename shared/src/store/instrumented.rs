//! A structure check: every public function of [`Store`](super::Store) carries
//! `#[tracing::instrument]`, and those that return a `Result` record their error (`err`), so a
//! slow or failing statement shows in the trace with the call that ran it. It reads the store's
//! source, since what it checks is how the code is written, not what it does.
//!
//! The spans and their errors are at `debug` (`level = "debug"`, `err(level = "debug")`): at
//! the default `info` filter they cost nothing on the edge's request path, and a visitor who
//! asks for pages that do not exist (`NotFound`) cannot fill the log with errors; an operator
//! turns them on with `RUST_LOG=vitrine_shared=debug`.

use std::path::{Path, PathBuf};

/// The store's source files, this check and the tests left out.
fn store_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("the store's source directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.ends_with("store/tests.rs")
                && !path.ends_with("store/instrumented.rs")
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store"),
        &mut out,
    );
    out.sort();
    out
}

/// `(name, attributes and docs above it, signature)` of each `pub fn` in the `impl Store`
/// blocks of `source`, which rustfmt has laid out: the block opens with `impl Store {` and
/// closes with `}` in the first column, its functions are indented four spaces.
fn store_functions(source: &str) -> Vec<(String, String, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut found = Vec::new();
    let mut in_store = false;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("impl Store {") {
            in_store = true;
            continue;
        }
        if *line == "}" {
            in_store = false;
            continue;
        }
        let Some(rest) = line
            .strip_prefix("    pub async fn ")
            .or_else(|| line.strip_prefix("    pub fn "))
        else {
            continue;
        };
        if !in_store {
            continue;
        }
        let name = rest.split(['(', '<']).next().unwrap_or(rest).to_string();
        let start = lines[..i]
            .iter()
            .rposition(|l| l.trim().is_empty() || *l == "    }" || l.starts_with("impl "))
            .map_or(0, |p| p + 1);
        let above = lines[start..i].join("\n");
        let signature = lines[i..]
            .iter()
            .take_while(|l| !l.ends_with('{') && !l.ends_with(';'))
            .chain(
                lines[i..]
                    .iter()
                    .find(|l| l.ends_with('{') || l.ends_with(';')),
            )
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        found.push((name, above, signature));
    }
    found
}

/// The `#[tracing::instrument(…)]` attribute among `above`, however rustfmt wrapped it.
fn instrument_attribute(above: &str) -> Option<&str> {
    let start = above.find("#[tracing::instrument")?;
    let end = above[start..]
        .find(")]")
        .map_or(above.len(), |e| start + e + 2);
    Some(&above[start..end])
}

#[test]
fn every_public_store_function_is_instrumented_and_records_its_errors() {
    let mut checked = 0;
    let mut missing = Vec::new();
    for path in store_sources() {
        let source = std::fs::read_to_string(&path).expect("a store source file");
        for (name, above, signature) in store_functions(&source) {
            checked += 1;
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            match instrument_attribute(&above) {
                None => missing.push(format!("{file}: {name} has no #[tracing::instrument]")),
                Some(attribute)
                    if signature.contains("-> Result")
                        && !attribute
                            .split(|c: char| !c.is_alphanumeric() && c != '_')
                            .any(|word| word == "err") =>
                {
                    missing.push(format!(
                        "{file}: {name} returns a Result, its span no `err`"
                    ))
                }
                Some(attribute) if !attribute.contains("level = \"debug\"") => {
                    missing.push(format!("{file}: {name}'s span is not at level debug"))
                }
                Some(_) => {}
            }
        }
    }
    // The store has some two hundred public functions: finding far fewer means the layout
    // this check reads has changed, not that the functions went away.
    assert!(checked > 150, "only {checked} store functions found");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_check_finds_a_function_without_the_attribute() {
    let source = "impl Store {\n    /// Documented.\n    #[tracing::instrument(skip(self), err)]\n    \
                  pub async fn traced(&self) -> Result<()> {\n        Ok(())\n    }\n\n    \
                  pub async fn untraced(\n        &self,\n    ) -> Result<()> {\n        Ok(())\n    \
                  }\n}\n";
    let found = store_functions(source);
    assert_eq!(found.len(), 2);
    assert_eq!(
        instrument_attribute(&found[0].1),
        Some("#[tracing::instrument(skip(self), err)]")
    );
    assert_eq!(found[1].0, "untraced");
    assert_eq!(instrument_attribute(&found[1].1), None);
    assert!(found[1].2.contains("-> Result"));
}
