//! The edge's modules in one order, read from its sources: `src/lib.rs`'s module docs list the
//! modules on a request's path outermost first, and each of them may use only the modules
//! listed below it; no module, on the path or beside it, is part of an import cycle; every
//! module is listed; and of the crate root's own items only `h1` uses any (it hands
//! connections back to the root's `drive`), the unit tests' `xorshift` aside.
//!
//! References are every `crate::…` path syn finds (in `use` trees, types and expressions)
//! and every `crate :: name` in the tokens of macro calls, which syn leaves unparsed; doc
//! comments are not code and do not count.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// The crate root's items modules may use besides `h1`: the unit tests' input generator.
const ROOT_ITEMS_FOR_TESTS: &[&str] = &["xorshift"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The modules: every `src/*.rs` but the crate root and the binary.
fn modules() -> BTreeSet<String> {
    fs::read_dir(src())
        .expect("edge/src")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .filter(|m| m != "lib" && m != "main")
        .collect()
}

/// What one module's code names of the crate: other modules (with the paths that name them)
/// and the crate root's own items.
#[derive(Default)]
struct Uses {
    modules: BTreeMap<String, BTreeSet<String>>,
    root_items: BTreeSet<String>,
}

struct Collector<'a> {
    known: &'a BTreeSet<String>,
    uses: Uses,
}

impl Collector<'_> {
    /// `crate::{name}…`: `name` is a module, or an item of the crate root.
    fn name(&mut self, name: &str, rest: Option<&str>) {
        if self.known.contains(name) {
            let shown = rest.map_or(name.to_string(), |r| format!("{name}::{r}"));
            self.uses
                .modules
                .entry(name.to_string())
                .or_default()
                .insert(shown);
        } else {
            self.uses.root_items.insert(name.to_string());
        }
    }

    /// The names a `use crate::…` tree starts with, after `crate::`.
    fn use_tree(&mut self, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                let next: Vec<Option<String>> = match &*p.tree {
                    syn::UseTree::Group(g) => g.items.iter().map(first_name).collect(),
                    tree => vec![first_name(tree)],
                };
                for next in next {
                    self.name(&p.ident.to_string(), next.as_deref());
                }
            }
            syn::UseTree::Name(n) => self.name(&n.ident.to_string(), None),
            syn::UseTree::Rename(r) => self.name(&r.ident.to_string(), None),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(t)),
            syn::UseTree::Glob(_) => {
                self.uses.root_items.insert("*".into());
            }
        }
    }

    /// `crate :: name (:: next)?` anywhere in a macro call's tokens.
    fn tokens(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(id) if id == "crate" => {
                    let ident = |j: usize| match tokens.get(j) {
                        Some(TokenTree::Ident(n)) => Some(n.to_string()),
                        _ => None,
                    };
                    let colons = |j: usize| {
                        matches!(
                            (tokens.get(j), tokens.get(j + 1)),
                            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                                if a.as_char() == ':' && b.as_char() == ':'
                        )
                    };
                    if colons(i + 1)
                        && let Some(name) = ident(i + 3)
                    {
                        let next = if colons(i + 4) { ident(i + 6) } else { None };
                        self.name(&name, next.as_deref());
                    }
                }
                _ => {}
            }
        }
    }
}

/// The name a `use` tree starts with (`*` for a glob; none for a group).
fn first_name(tree: &syn::UseTree) -> Option<String> {
    match tree {
        syn::UseTree::Path(p) => Some(p.ident.to_string()),
        syn::UseTree::Name(n) => Some(n.ident.to_string()),
        syn::UseTree::Rename(r) => Some(r.ident.to_string()),
        syn::UseTree::Glob(_) => Some("*".into()),
        syn::UseTree::Group(_) => None,
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if let syn::UseTree::Path(p) = &item.tree
            && p.ident == "crate"
        {
            self.use_tree(&p.tree);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let [first, name, rest @ ..] = segments.as_slice()
            && first == "crate"
        {
            self.name(name, rest.first().map(String::as_str));
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

fn uses(module: &str, known: &BTreeSet<String>) -> Uses {
    let path = src().join(format!("{module}.rs"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut c = Collector {
        known,
        uses: Uses::default(),
    };
    c.visit_file(&file);
    c.uses.modules.remove(module);
    c.uses
}

/// The bulleted lists of `src/lib.rs`'s module docs, in order: each list's ``[`module`]``s.
fn documented_lists() -> Vec<Vec<String>> {
    let lib = fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    let mut lists: Vec<Vec<String>> = Vec::new();
    let mut in_list = false;
    for line in lib.lines().take_while(|l| l.starts_with("//!")) {
        let text = line.trim_start_matches("//!");
        if let Some(item) = text.strip_prefix(" - [`") {
            if !in_list {
                lists.push(Vec::new());
            }
            let name = item.split('`').next().unwrap_or_default();
            lists.last_mut().expect("a list").push(name.to_string());
            in_list = true;
        } else {
            // A bullet's continuation is indented; anything else ends the list.
            in_list = in_list && text.starts_with("   ");
        }
    }
    lists
}

/// A cycle in the graph, as the modules along it (the first repeated at the end).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn walk(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = walk(next, graph, done, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|start| walk(start, graph, &mut done, &mut Vec::new()))
}

#[test]
fn the_modules_follow_the_documented_order_and_import_no_cycle() {
    let known = modules();
    let all: BTreeMap<String, Uses> = known.iter().map(|m| (m.clone(), uses(m, &known))).collect();
    let graph: BTreeMap<String, BTreeSet<String>> = all
        .iter()
        .map(|(m, u)| (m.clone(), u.modules.keys().cloned().collect()))
        .collect();
    let edge = |from: &str, to: &str| {
        let names = &all[from].modules[to];
        format!(
            "{from} → {to} ({})",
            Vec::from_iter(names.iter().map(String::as_str)).join(", ")
        )
    };

    if let Some(cycle) = find_cycle(&graph) {
        let steps: Vec<String> = cycle.windows(2).map(|w| edge(&w[0], &w[1])).collect();
        panic!(
            "the edge's modules import in a circle: {}\n  {}",
            cycle.join(" → "),
            steps.join("\n  ")
        );
    }

    let lists = documented_lists();
    let path = lists
        .first()
        .expect("src/lib.rs's module docs list the request path");
    let listed: BTreeSet<&String> = lists.iter().flatten().collect();
    let unlisted: Vec<&String> = known.iter().filter(|m| !listed.contains(m)).collect();
    assert!(
        unlisted.is_empty(),
        "src/lib.rs's module docs do not list {unlisted:?}"
    );
    for m in path {
        assert!(
            known.contains(m),
            "src/lib.rs lists `{m}`, which is not a module"
        );
    }
    for (at, m) in path.iter().enumerate() {
        let upward: Vec<String> = path[..at]
            .iter()
            .filter(|above| graph[m].contains(*above))
            .map(|above| edge(m, above))
            .collect();
        assert!(
            upward.is_empty(),
            "`{m}` uses modules listed above it on the request path (src/lib.rs): {upward:?}"
        );
    }

    for (m, u) in &all {
        let root: Vec<&String> = u
            .root_items
            .iter()
            .filter(|i| m != "h1" && !ROOT_ITEMS_FOR_TESTS.contains(&i.as_str()))
            .collect();
        assert!(
            root.is_empty(),
            "`{m}` uses the crate root's {root:?}: only h1 may (see src/lib.rs)"
        );
    }
}

/// The test above can fail: a cycle, an upward use and a root item are each found in code
/// made for the purpose.
#[test]
fn the_reader_finds_cycles_upward_uses_and_root_items() {
    let known: BTreeSet<String> = ["a", "b", "c"].map(String::from).into();
    let parse = |code: &str| {
        let mut c = Collector {
            known: &known,
            uses: Uses::default(),
        };
        c.visit_file(&syn::parse_file(code).expect("test code"));
        c.uses
    };
    let a = parse(
        "//! Docs naming [`crate::c`] do not count.\n\
         use crate::{b::{X, Y}, Edge};\n\
         fn f() { tracing::warn!(x = crate::c::Z, \"in a macro\"); }",
    );
    assert_eq!(
        Vec::from_iter(a.modules.keys().map(String::as_str)),
        ["b", "c"]
    );
    assert_eq!(Vec::from_iter(&a.root_items), [&"Edge".to_string()]);
    let b = parse("fn g() -> crate::a::T { todo!() }");
    assert!(b.modules.contains_key("a"));

    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"])]
            .into_iter()
            .map(|(m, to)| (m.to_string(), to.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(
        find_cycle(&graph).expect("a cycle"),
        ["a", "b", "c", "a"].map(String::from)
    );
    let mut dag = graph.clone();
    dag.get_mut("c").expect("c").clear();
    assert_eq!(find_cycle(&dag), None);
}
