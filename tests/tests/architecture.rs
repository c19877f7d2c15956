//! Who may import whom, read from the sources (`docs/architecture.md` draws the same map):
//!
//! - **Crates:** `shared` depends on neither server; the control plane and the edge never
//!   depend on each other (they meet only in the database and the object store). Only this
//!   crate and `benches` depend on both.
//! - **The edge:** `edge/src/lib.rs`'s module docs list the modules on a request's path,
//!   outermost first; each may use only the modules listed below it; no module is part of an
//!   import cycle; every module is listed; and no module uses the crate root's own items
//!   (the root is the crate's face: its docs, its modules and the public `Edge`).
//! - **The control plane:** a route module never imports another route module (what two
//!   resources share lives outside `routes/`), and `error.rs` imports nothing of the app.
//! - **No cycles in the control plane and `shared`:** in every folder (the crate root too), no
//!   module is part of an import cycle with the modules beside it; code compiled only for tests
//!   (`#[cfg(test)]`) is left out.
//! - **File size:** no Rust or TypeScript file in the workspace outside tests is
//!   over [`MAX_LINES`] lines, unless its opening doc comment says why with the words "over
//!   600 lines".
//!
//! References are every `crate::…` and `super::…` path syn finds (in `use` trees, types and
//! expressions) and every `crate :: name` in the tokens of macro calls, which syn leaves
//! unparsed; doc comments are not code and do not count.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// A module's path inside its crate: `routes/blocks/library.rs` is `["routes", "blocks",
/// "library"]`, `routes/mod.rs` is `["routes"]`, and the crate root is `[]`.
type ModPath = Vec<String>;

/// Every `.rs` file under `src` (the binary's `main.rs` aside), by module path.
fn files(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<ModPath, PathBuf>) {
        for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, src, out);
                continue;
            }
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut module: ModPath = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|l| l == "mod") {
                module.pop();
            }
            if module == ["lib"] {
                module.clear();
            }
            if module == ["main"] || module.first().is_some_and(|m| m == "bin") {
                continue;
            }
            out.insert(module, path);
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The crate paths one file's code names, each as the segments after `crate::` (a
/// `super::` path is made absolute from the file's module).
struct Collector {
    module: ModPath,
    refs: BTreeSet<ModPath>,
}

impl Collector {
    fn absolute(&self, segments: &[String]) -> Option<ModPath> {
        match segments.first().map(String::as_str) {
            Some("crate") => Some(segments[1..].to_vec()),
            Some("super") => {
                let mut base = self.module.clone();
                let mut rest = segments;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                Some(base)
            }
            _ => None,
        }
    }

    fn add(&mut self, segments: &[String]) {
        if let Some(path) = self.absolute(segments)
            && !path.is_empty()
        {
            self.refs.insert(path);
        }
    }

    /// Every path a `use` tree names, with `prefix` before it.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                if n.ident != "self" {
                    path.push(n.ident.to_string());
                }
                self.add(&path);
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.push(r.ident.to_string());
                }
                self.add(&path);
            }
            syn::UseTree::Glob(_) => {
                let mut path = prefix.clone();
                path.push("*".into());
                self.add(&path);
            }
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(prefix, t)),
        }
    }

    /// `crate :: a (:: b)*` and `super :: …` anywhere in a macro call's tokens.
    fn tokens(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
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
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(id) if id == "crate" || id == "super" => {
                    let before_is_path = i >= 2 && colons(i - 2);
                    if before_is_path {
                        continue;
                    }
                    let mut path = vec![id.to_string()];
                    let mut j = i + 1;
                    while colons(j)
                        && let Some(next) = ident(j + 2)
                    {
                        path.push(next);
                        j += 3;
                    }
                    self.add(&path);
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(&segments);
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }

    /// An inline module (`mod tests { … }`) is one level down for its `super::` paths.
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.module.pop();
    }
}

fn refs_in(module: &ModPath, code: &str) -> BTreeSet<ModPath> {
    let file = syn::parse_file(code).unwrap_or_else(|e| panic!("{module:?}: {e}"));
    let mut c = Collector {
        module: module.clone(),
        refs: BTreeSet::new(),
    };
    c.visit_file(&file);
    c.refs
}

/// Every file of a crate with the crate paths its code names.
fn crate_refs(krate: &str) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    files(&workspace().join(krate).join("src"))
        .into_iter()
        .map(|(module, path)| {
            let code = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let refs = refs_in(&module, &code);
            (module, refs)
        })
        .collect()
}

/// The graph of a crate's top-level modules (a module's files and submodules are one node),
/// without self-edges; `roots` gets what each module names of the crate root's own items.
fn top_level(
    refs: &BTreeMap<ModPath, BTreeSet<ModPath>>,
    roots: &mut BTreeMap<String, BTreeSet<String>>,
) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let known: BTreeSet<&String> = refs.keys().filter_map(|m| m.first()).collect();
    let mut graph: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (module, names) in refs {
        let Some(from) = module.first() else { continue };
        let out = graph.entry(from.clone()).or_default();
        for name in names {
            let to = &name[0];
            if known.contains(to) {
                if to != from {
                    out.entry(to.clone()).or_default().insert(name.join("::"));
                }
            } else {
                roots.entry(from.clone()).or_default().insert(to.clone());
            }
        }
    }
    graph
}

/// A cycle in the graph, as the modules along it (the first repeated at the end).
fn find_cycle<V>(graph: &BTreeMap<String, BTreeMap<String, V>>) -> Option<Vec<String>> {
    fn walk<V>(
        node: &str,
        graph: &BTreeMap<String, BTreeMap<String, V>>,
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
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
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

/// The bulleted lists of a crate root's module docs, in order: each list's ``[`module`]``s.
fn documented_lists(lib: &str) -> Vec<Vec<String>> {
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

/// The workspace crates a crate's manifest depends on (normal and build dependencies; dev-
/// dependencies are tests).
fn crate_deps(krate: &str) -> BTreeSet<String> {
    let path = workspace().join(krate).join("Cargo.toml");
    let manifest: toml::Table = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path:?}: {e}"))
        .parse()
        .unwrap_or_else(|e| panic!("{path:?}: {e}"));
    ["dependencies", "build-dependencies"]
        .iter()
        .filter_map(|t| manifest.get(*t)?.as_table())
        .flat_map(|t| t.keys())
        .filter(|k| k.starts_with("vitrine-"))
        .cloned()
        .collect()
}

#[test]
fn the_crates_depend_only_downwards() {
    // The photo codecs are a leaf below shared (compiled optimised: photo-codec/src/lib.rs).
    let codec = crate_deps("photo-codec");
    assert!(codec.is_empty(), "the photo codecs depend on {codec:?}");
    let shared = crate_deps("shared");
    assert!(
        shared.iter().all(|c| c == "vitrine-photo-codec"),
        "shared depends on {shared:?}"
    );
    let edge = crate_deps("edge");
    assert!(
        !edge.contains("vitrine-control-plane"),
        "the edge depends on the control plane"
    );
    let control = crate_deps("control-plane");
    assert!(
        !control.contains("vitrine-edge"),
        "the control plane depends on the edge"
    );
}

#[test]
fn the_edge_modules_follow_the_documented_order_and_import_no_cycle() {
    let refs = crate_refs("edge");
    let mut roots = BTreeMap::new();
    let graph = top_level(&refs, &mut roots);
    let edge = |from: &str, to: &str| {
        let names = &graph[from][to];
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

    let lib = fs::read_to_string(workspace().join("edge/src/lib.rs")).expect("edge/src/lib.rs");
    let lists = documented_lists(&lib);
    let path = lists
        .first()
        .expect("edge/src/lib.rs's module docs list the request path");
    let listed: BTreeSet<&String> = lists.iter().flatten().collect();
    let unlisted: Vec<&String> = graph.keys().filter(|m| !listed.contains(m)).collect();
    assert!(
        unlisted.is_empty(),
        "edge/src/lib.rs's module docs do not list {unlisted:?}"
    );
    for m in path {
        assert!(
            graph.contains_key(m),
            "edge/src/lib.rs lists `{m}`, which is not a module"
        );
    }
    for (at, m) in path.iter().enumerate() {
        let upward: Vec<String> = path[..at]
            .iter()
            .filter(|above| graph[m].contains_key(*above))
            .map(|above| edge(m, above))
            .collect();
        assert!(
            upward.is_empty(),
            "`{m}` uses modules listed above it on the request path (edge/src/lib.rs): {upward:?}"
        );
    }
    let root_users: Vec<String> = roots
        .iter()
        .map(|(m, items)| format!("`{m}` uses {items:?}"))
        .collect();
    assert!(
        root_users.is_empty(),
        "modules use the edge's crate root's own items; move them into a module (the root is \
         the crate's face, see edge/src/lib.rs):\n  {}",
        root_users.join("\n  ")
    );
}

/// A route module (`routes/{x}.rs` or under `routes/{x}/`) naming another one.
fn route_to_route(refs: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<String> {
    let mut found = Vec::new();
    for (module, names) in refs {
        let [first, own, ..] = module.as_slice() else {
            continue;
        };
        if first != "routes" {
            continue;
        }
        for name in names {
            if let [r, other, ..] = name.as_slice()
                && r == "routes"
                && other != own
                && other != "*"
            {
                found.push(format!("{} → {}", module.join("::"), name.join("::")));
            }
        }
    }
    found
}

#[test]
fn control_plane_routes_import_no_other_route_and_errors_import_nothing_of_the_app() {
    let refs = crate_refs("control-plane");
    let across = route_to_route(&refs);
    assert!(
        across.is_empty(),
        "route modules import other route modules (move what they share out of routes/):\n  {}",
        across.join("\n  ")
    );
    let error: Vec<String> = refs
        .get(&vec!["error".to_string()])
        .expect("control-plane/src/error.rs")
        .iter()
        .filter(|n| n[0] != "error")
        .map(|n| n.join("::"))
        .collect();
    assert!(
        error.is_empty(),
        "control-plane/src/error.rs imports {error:?}: errors depend on nothing of the app"
    );
}

/// For every folder of a crate (the crate root included), the graph of the modules directly
/// in it: a module's files and submodules are one node, and an edge is a name one sibling's
/// code uses from another. A child naming its parent's own items is no edge (its parent is
/// above it, not beside it), so a parent and its children are never a cycle by themselves.
fn sibling_graphs(
    refs: &BTreeMap<ModPath, BTreeSet<ModPath>>,
) -> BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, BTreeSet<String>>>> {
    let mut children: BTreeMap<ModPath, BTreeSet<String>> = BTreeMap::new();
    for module in refs.keys() {
        for depth in 0..module.len() {
            children
                .entry(module[..depth].to_vec())
                .or_default()
                .insert(module[depth].clone());
        }
    }
    let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, BTreeSet<String>>>> =
        BTreeMap::new();
    for (parent, kids) in &children {
        let depth = parent.len();
        let graph = graphs.entry(parent.clone()).or_default();
        for (module, names) in refs {
            if module.len() <= depth || !module.starts_with(parent) {
                continue;
            }
            let from = &module[depth];
            let out = graph.entry(from.clone()).or_default();
            for name in names {
                if name.len() <= depth || !name.starts_with(parent) {
                    continue;
                }
                let to = &name[depth];
                if to != from && kids.contains(to) {
                    out.entry(to.clone()).or_default().insert(name.join("::"));
                }
            }
        }
    }
    graphs
}

/// Whether an item is compiled only for tests (`#[cfg(test)]`).
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|arg| arg == "test")
    })
}

/// Every file of a crate with the crate paths its code names, leaving out the code compiled
/// only for tests (`#[cfg(test)]` items and the files of `#[cfg(test)] mod x;`): a test may
/// use what it tests together with anything, and the program never runs it.
fn crate_refs_without_tests(krate: &str) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut test_files: BTreeSet<ModPath> = BTreeSet::new();
    let mut refs = BTreeMap::new();
    for (module, path) in files(&workspace().join(krate).join("src")) {
        let code = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let mut file = syn::parse_file(&code).unwrap_or_else(|e| panic!("{module:?}: {e}"));
        for item in &file.items {
            if let syn::Item::Mod(m) = item
                && is_test_only(&m.attrs)
            {
                let mut child = module.clone();
                child.push(m.ident.to_string());
                test_files.insert(child);
            }
        }
        file.items.retain(|item| match item {
            syn::Item::Mod(m) => !is_test_only(&m.attrs),
            syn::Item::Fn(f) => !is_test_only(&f.attrs),
            syn::Item::Use(u) => !is_test_only(&u.attrs),
            syn::Item::Impl(i) => !is_test_only(&i.attrs),
            _ => true,
        });
        let mut c = Collector {
            module: module.clone(),
            refs: BTreeSet::new(),
        };
        c.visit_file(&file);
        refs.insert(module, c.refs);
    }
    refs.retain(|module, _| !test_files.iter().any(|t| module.starts_with(t)));
    refs
}

/// Every import cycle among sibling modules of a crate, each told step by step.
fn sibling_cycles(krate: &str) -> Vec<String> {
    let refs = crate_refs_without_tests(krate);
    let mut found = Vec::new();
    for (parent, graph) in sibling_graphs(&refs) {
        let mut graph = graph;
        // Report each cycle, then cut its first step and look again, so one run lists them all.
        while let Some(cycle) = find_cycle(&graph) {
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| {
                    let names = &graph[&w[0]][&w[1]];
                    format!(
                        "{} → {} ({})",
                        w[0],
                        w[1],
                        Vec::from_iter(names.iter().map(String::as_str)).join(", ")
                    )
                })
                .collect();
            let place = if parent.is_empty() {
                format!("{krate}/src")
            } else {
                format!("{krate}/src/{}", parent.join("/"))
            };
            found.push(format!(
                "in {place}: {}\n    {}",
                cycle.join(" → "),
                steps.join("\n    ")
            ));
            graph
                .get_mut(&cycle[0])
                .expect("the cycle's first module")
                .remove(&cycle[1]);
        }
    }
    found
}

/// In the control plane and `shared`, no module is part of an import cycle with its siblings,
/// at any level (`publish/build.rs` and `publish/assets.rs` as much as `state` and `publish`):
/// the services sit above `Core` (`control-plane/src/base.rs`), the routes' state above
/// them, and what runs after a publish is a hook the publisher is given.
#[test]
fn the_control_plane_and_shared_modules_import_no_cycle() {
    let cycles: Vec<String> = ["control-plane", "shared"]
        .into_iter()
        .flat_map(sibling_cycles)
        .collect();
    assert!(
        cycles.is_empty(),
        "modules import in a circle (move what both need below both, or hand one a hook \
         instead of the other's module):\n  {}",
        cycles.join("\n  ")
    );
}

/// The checks above can fail: references, a cycle, a route-to-route import and a root item
/// are each found in code made for the purpose.
#[test]
fn the_reader_finds_references_cycles_and_route_imports() {
    let module: ModPath = vec!["routes".into(), "a".into()];
    let refs = refs_in(
        &module,
        "//! Docs naming [`crate::c`] do not count.\n\
         use crate::{b::{X, Y}, Edge};\n\
         use super::other::Z;\n\
         mod tests { use super::*; }\n\
         fn f() { tracing::warn!(x = crate::c::Z, \"in a macro\"); }\n\
         fn g() -> crate::d::T { todo!() }",
    );
    let shown: Vec<String> = refs.iter().map(|r| r.join("::")).collect();
    assert_eq!(
        shown,
        [
            "Edge",
            "b::X",
            "b::Y",
            "c::Z",
            "d::T",
            "routes::a::*",
            "routes::other::Z"
        ]
    );
    let across = route_to_route(&[(module, refs)].into());
    assert_eq!(across, ["routes::a → routes::other::Z"]);

    let graph: BTreeMap<String, BTreeMap<String, ()>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"])]
            .into_iter()
            .map(|(m, to)| {
                (
                    m.to_string(),
                    to.into_iter().map(|t| (t.to_string(), ())).collect(),
                )
            })
            .collect();
    assert_eq!(
        find_cycle(&graph).expect("a cycle"),
        ["a", "b", "c", "a"].map(String::from)
    );
    let mut dag = graph.clone();
    dag.get_mut("c").expect("c").clear();
    assert_eq!(find_cycle(&dag), None);

    let mut roots = BTreeMap::new();
    let files: BTreeMap<ModPath, BTreeSet<ModPath>> = [
        (
            vec!["a".to_string()],
            [
                vec!["b".to_string(), "X".to_string()],
                vec!["drive".to_string()],
            ]
            .into(),
        ),
        (vec!["b".to_string()], BTreeSet::new()),
    ]
    .into();
    let g = top_level(&files, &mut roots);
    assert!(g["a"].contains_key("b"));
    assert_eq!(roots["a"], ["drive".to_string()].into());
}

/// The cycle check can fail: two siblings naming each other are a cycle at their folder's
/// level, a child naming its parent's items is none, and only `#[cfg(test)]` counts as tests.
#[test]
fn the_sibling_graphs_find_a_cycle_beside_each_other_and_none_with_the_parent() {
    let path = |p: &str| -> ModPath { p.split("::").map(String::from).collect() };
    let refs: BTreeMap<ModPath, BTreeSet<ModPath>> = [
        ("publish", vec!["publish::build::Build"]),
        (
            "publish::build",
            vec!["publish::Step", "publish::assets::hash"],
        ),
        (
            "publish::assets",
            vec!["publish::build::Build", "state::AppState"],
        ),
        ("state", vec!["publish::Publisher"]),
    ]
    .into_iter()
    .map(|(m, names)| (path(m), names.into_iter().map(path).collect()))
    .collect();
    let graphs = sibling_graphs(&refs);
    assert_eq!(
        find_cycle(&graphs[&path("publish")]).expect("a cycle"),
        ["assets", "build", "assets"].map(String::from)
    );
    assert_eq!(
        find_cycle(&graphs[&Vec::new()]).expect("a cycle"),
        ["publish", "state", "publish"].map(String::from)
    );
    let mut no_state = refs.clone();
    no_state.insert(
        path("publish::assets"),
        [path("publish::build::Build")].into(),
    );
    assert_eq!(find_cycle(&sibling_graphs(&no_state)[&Vec::new()]), None);

    let test_only: syn::ItemMod = syn::parse_str("#[cfg(test)] mod tests;").expect("an item");
    assert!(is_test_only(&test_only.attrs));
    let support: syn::ItemMod =
        syn::parse_str("#[cfg(any(test, feature = \"testing\"))] pub mod testing;")
            .expect("an item");
    assert!(!is_test_only(&support.attrs));
}

/// The longest a source file outside tests may be without saying why.
const MAX_LINES: usize = 600;

/// Folders the size rule does not walk: builds, dependencies and version control.
const NOT_SOURCE: &[&str] = &[
    "target",
    "node_modules",
    "dist",
    ".git",
    "corpus",
    "artifacts",
];

/// Whether a file is a test or test support: under a `tests`, `e2e` or `testing` folder, a
/// `tests.rs`, or a `.test.` TypeScript file.
fn is_test_file(rel: &Path) -> bool {
    let name = rel
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    rel.components()
        .any(|c| matches!(c.as_os_str().to_str(), Some("tests" | "e2e" | "testing")))
        || name == "tests.rs"
        || name.contains(".test.")
}

/// The files (a path and its text) over [`MAX_LINES`] lines whose opening comment, the
/// comment lines before the first line of code, does not say why.
fn oversized<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    files
        .into_iter()
        .filter_map(|(path, text)| {
            let lines = text.lines().count();
            if lines <= MAX_LINES {
                return None;
            }
            let opening: String = text
                .lines()
                .map(str::trim_start)
                .take_while(|l| {
                    l.is_empty() || l.starts_with("//") || l.starts_with("/*") || l.starts_with('*')
                })
                .collect::<Vec<_>>()
                .join(" ");
            let says_why = opening.contains("over 600 lines");
            (!says_why).then(|| format!("{path}: {lines} lines"))
        })
        .collect()
}

#[test]
fn no_source_file_outside_tests_is_over_600_lines_unless_it_says_why() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if path.is_dir() {
                if !NOT_SOURCE.contains(&name.as_deref().unwrap_or_default()) {
                    walk(&path, out);
                }
            } else if path
                .extension()
                .is_some_and(|x| x == "rs" || x == "ts" || x == "tsx")
            {
                out.push(path);
            }
        }
    }
    let root = workspace();
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    let texts: Vec<(String, String)> = paths
        .iter()
        .map(|p| p.strip_prefix(&root).expect("under the workspace"))
        .filter(|rel| !is_test_file(rel))
        .map(|rel| {
            let text = fs::read_to_string(root.join(rel))
                .unwrap_or_else(|e| panic!("{}: {e}", rel.display()));
            (rel.display().to_string(), text)
        })
        .collect();
    assert!(
        texts.len() > 300,
        "the walk found the sources ({} files)",
        texts.len()
    );
    let over = oversized(texts.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    assert!(
        over.is_empty(),
        "split these files, or say in their opening doc why they are over 600 lines:\n{}",
        over.join("\n")
    );
}

/// The size check can fail: a long file is named unless its opening comment says why, and
/// a test file is not a source file.
#[test]
fn the_size_check_names_a_long_file_that_does_not_say_why() {
    let long = "fn f() {}\n".repeat(MAX_LINES + 1);
    let explained = format!("//! Kept whole: over 600 lines because it is one table.\n{long}");
    let short = "fn f() {}\n".repeat(MAX_LINES);
    let code_first = format!("fn g() {{}}\n// over 600 lines, said too late\n{long}");
    assert_eq!(
        oversized([
            ("a.rs", long.as_str()),
            ("b.rs", explained.as_str()),
            ("c.rs", short.as_str()),
            ("d.rs", code_first.as_str()),
        ]),
        ["a.rs: 601 lines", "d.rs: 603 lines"]
    );
    assert!(is_test_file(Path::new("edge/tests/edge/front.rs")));
    assert!(is_test_file(Path::new("shared/src/store/tests.rs")));
    assert!(is_test_file(Path::new("dashboard/src/lib/x.test.ts")));
    assert!(!is_test_file(Path::new("edge/src/h1.rs")));
}
