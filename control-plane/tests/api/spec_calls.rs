//! The spec's call list is the route table's contract: every call in §7 of both spec files
//! (vendored verbatim in `docs/spec/`) is routed by the app and is in the OpenAPI document.
//!
//! "Routed" is what the router itself says: the metrics middleware labels each request with
//! the template of the route that matched it (`MatchedPath`), and the `/api/{*rest}`
//! catch-all or `other` (the dashboard's files) when none did. So each call is sent to a real
//! app, and the one label its request added on `/metrics` must be the call's own path; a
//! route that matched the path but not the method answers the router's 405, which no handler
//! does. Parameters are compared by position, not name (`{id}`, `{page_id}` and `:id` alike).

use std::collections::{BTreeMap, BTreeSet};

use reqwest::{Method, StatusCode};
use vitrine_shared::testing::Backend;

use crate::{
    helpers::{TestApp, metrics_at},
    openapi::openapi,
};

const SPECS: [(&str, &str); 2] = [
    (
        "spec 1",
        include_str!("../../../docs/spec/spec-1-projects-collections-hosting.md"),
    ),
    (
        "spec 2",
        include_str!("../../../docs/spec/spec-2-editor-billing-admin.md"),
    ),
];

/// Calls the spec writes one way and the app serves another, on purpose: the spec's call and
/// the call that serves it. A path the spec names without a method is written `LINK`.
const SERVED_AS: &[(&str, &str)] = &[
    // Spec 2 puts the card calls on a separate billing service; here they are the control
    // plane's own, under /api like every other call.
    ("GET /stripe-config", "GET /api/stripe-config"),
    (
        "GET /stripe-setup-intent/{}",
        "GET /api/stripe-setup-intent/{}",
    ),
    (
        "POST /stripe-set-default-payment-method/{}/{}",
        "POST /api/stripe-set-default-payment-method/{}/{}",
    ),
    // Spec 1 shows this as a link to paste into a spreadsheet; the spreadsheet's script
    // POSTs its rows to it.
    ("LINK /google-sheets/{}/{}", "POST /google-sheets/{}/{}"),
];

/// A call: a method (`LINK` when the spec names none) and a path whose parameters are `{}`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Call {
    method: String,
    path: String,
}

impl std::fmt::Display for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.method, self.path)
    }
}

impl Call {
    fn parse(text: &str) -> Call {
        let (method, path) = text.split_once(' ').expect("METHOD /path");
        Call {
            method: method.into(),
            path: normalise(path),
        }
    }
}

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// A path with each parameter (`{id}`, `{id?}`, `:id`, `{*rest}`) as `{}`, and no query.
fn normalise(path: &str) -> String {
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    path.split('/')
        .map(|s| {
            if s.starts_with('{') || s.starts_with(':') {
                "{}"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The text of a spec's section 7 (its calls).
fn section_7(spec: &str) -> &str {
    let start = spec.find("\n## 7.").expect("a section 7");
    let rest = &spec[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// The calls of a spec's section 7: the first cell of each table row and each bullet. A path
/// takes the last method before it on its line ("POST /erp/delete-block/{id}; /erp/truncate");
/// one that starts inside the previous path continues it ("…/export/csv and /export/json"); an
/// optional parameter (`{id?}`) gives the call with it and without it.
fn spec_calls(spec: &str) -> Vec<Call> {
    let mut calls = Vec::new();
    for line in section_7(spec).lines().map(str::trim) {
        let text = if let Some(row) = line.strip_prefix('|') {
            row.split('|').next().unwrap_or("")
        } else if let Some(bullet) = line.strip_prefix("- ") {
            bullet
        } else {
            continue;
        };
        calls.extend(calls_in(text));
    }
    calls
}

fn calls_in(text: &str) -> Vec<Call> {
    let mut calls = Vec::new();
    let mut method: Option<&str> = None;
    let mut previous: Option<String> = None;
    for token in text.split_whitespace() {
        let token = token.trim_end_matches([',', ';', '.', ')']);
        if METHODS.contains(&token) {
            method = Some(token);
            continue;
        }
        let is_path = token.starts_with('/')
            && token[1..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '{');
        if !is_path {
            continue;
        }
        let mut path = token.to_string();
        if let Some(previous) = &previous {
            let first = path.split('/').nth(1).unwrap_or_default();
            let segments: Vec<&str> = previous.split('/').collect();
            if segments.get(1) != Some(&first)
                && let Some(at) = segments.iter().rposition(|s| *s == first)
            {
                path = format!("{}{path}", segments[..at].join("/"));
            }
        }
        previous = Some(path.clone());
        let method = method.unwrap_or("LINK").to_string();
        // An optional parameter before the query (whose `?` it would otherwise start).
        match path.strip_suffix("/{id?}") {
            Some(bare) => {
                calls.push(Call {
                    method: method.clone(),
                    path: normalise(bare),
                });
                calls.push(Call {
                    method,
                    path: normalise(&format!("{bare}/{{id}}")),
                });
            }
            None => calls.push(Call {
                method,
                path: normalise(&path),
            }),
        }
    }
    calls
}

/// Every spec call as the app should serve it, once each.
fn expected_calls() -> BTreeSet<Call> {
    let exceptions: BTreeMap<Call, Call> = SERVED_AS
        .iter()
        .map(|(spec, served)| (Call::parse(spec), Call::parse(served)))
        .collect();
    let mut out = BTreeSet::new();
    for (name, spec) in SPECS {
        let calls = spec_calls(spec);
        assert!(calls.len() > 30, "{name}: only {} calls read", calls.len());
        for call in calls {
            out.insert(exceptions.get(&call).cloned().unwrap_or(call));
        }
    }
    out
}

/// `route label -> requests` from the admin listener's `/metrics`.
async fn requests_by_route(app: &TestApp) -> BTreeMap<String, u64> {
    let text = metrics_at(app.app.admin_addr().expect("admin listener")).await;
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(labels) = line.strip_prefix("vitrine_control_http_requests_total{") else {
            continue;
        };
        let (labels, count) = labels.rsplit_once("} ").unwrap();
        let route = labels
            .split_once("route=\"")
            .and_then(|(_, r)| r.strip_suffix('"'))
            .unwrap_or_else(|| panic!("no route label in {line}"));
        *out.entry(route.to_string()).or_default() += count.parse::<u64>().unwrap();
    }
    out
}

/// Sends `call` (anonymously, without a body, parameters `1`) and returns the route template
/// that answered it, or why none did.
async fn route_of(app: &TestApp, call: &Call) -> Result<String, String> {
    let before = requests_by_route(app).await;
    let method = Method::from_bytes(call.method.as_bytes()).unwrap();
    let res = reqwest::Client::new()
        .request(method, app.url(&call.path.replace("{}", "1")))
        .send()
        .await
        .unwrap();
    let status = res.status();
    let after = requests_by_route(app).await;
    let counted: Vec<&String> = after
        .iter()
        .filter(|(route, n)| before.get(*route).copied().unwrap_or(0) < **n)
        .map(|(route, _)| route)
        .collect();
    let route = match counted[..] {
        [route] => route,
        // The dashboard's files answer outside the routes (and outside the metrics).
        [] => {
            return Err(format!(
                "no route: the dashboard's fallback answered {status}"
            ));
        }
        _ => return Err(format!("counted under {counted:?}")),
    };
    if route == "/api/{*rest}" || route == "other" {
        return Err(format!(
            "no route: the fallback ({route}) answered {status}"
        ));
    }
    if status == StatusCode::METHOD_NOT_ALLOWED {
        return Err(format!("{route} is routed, but not for {}", call.method));
    }
    Ok(route.clone())
}

#[tokio::test]
async fn every_call_in_the_spec_is_routed_and_documented() {
    let app = TestApp::new(Backend::Sqlite).await;
    let doc = openapi(&app).await;
    let documented: BTreeSet<Call> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object().unwrap().keys().map(|method| Call {
                method: method.to_uppercase(),
                path: normalise(path),
            })
        })
        .collect();

    let expected = expected_calls();
    let mut failures = Vec::new();
    for call in &expected {
        if !documented.contains(call) {
            failures.push(format!("{call}: not in the OpenAPI document"));
        }
        match route_of(&app, call).await {
            Ok(route) if normalise(&route) == call.path => {}
            Ok(route) => failures.push(format!("{call}: answered by {route}")),
            Err(why) => failures.push(format!("{call}: {why}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} spec calls fail:\n{}",
        failures.len(),
        expected.len(),
        failures.join("\n")
    );
}

/// The check above can fail: a path nothing serves, under `/api` and elsewhere, and a method
/// a routed path does not take, are each told apart from a routed call.
#[tokio::test]
async fn a_call_the_app_does_not_route_is_told_apart() {
    let app = TestApp::new(Backend::Sqlite).await;
    for unrouted in [
        "GET /api/no-such-call",
        "POST /api/block-categories",
        "POST /erp/no-such-call",
        "PUT /api/blocks",
        "DELETE /erp/truncate",
    ] {
        let call = Call::parse(unrouted);
        assert!(
            route_of(&app, &call).await.is_err(),
            "{unrouted} looks routed"
        );
    }
    // A handler's own 404 (no project 1) is a routed call.
    let call = Call::parse("GET /api/projects/{id}");
    assert_eq!(
        route_of(&app, &call).await,
        Ok("/api/projects/{id}".to_string())
    );
}

#[test]
fn spec_call_lines_are_read_as_calls() {
    let calls =
        |text: &str| -> Vec<String> { calls_in(text).iter().map(ToString::to_string).collect() };
    assert_eq!(
        calls("GET /api/tables/{id}/export/csv and /export/json "),
        [
            "GET /api/tables/{}/export/csv",
            "GET /api/tables/{}/export/json"
        ]
    );
    assert_eq!(
        calls("POST /erp/delete-block/{id}; /erp/delete-category/{id}; /erp/truncate."),
        [
            "POST /erp/delete-block/{}",
            "POST /erp/delete-category/{}",
            "POST /erp/truncate"
        ]
    );
    assert_eq!(
        calls("POST /erp/block/{id?} (create or update, or {category_id} to change category)"),
        ["POST /erp/block", "POST /erp/block/{}"]
    );
    assert_eq!(
        calls("GET /api/block-screenshot/{id}?size=..&trim=1 (returns an image)"),
        ["GET /api/block-screenshot/{}"]
    );
    assert_eq!(
        calls("GET /api/users; POST /api/loginWith/{id} (then reload to /)."),
        ["GET /api/users", "POST /api/loginWith/{}"]
    );
    assert_eq!(
        calls("A link of the form /google-sheets/{project_id}/{token}, with phone=1"),
        ["LINK /google-sheets/{}/{}"]
    );
    assert_eq!(
        normalise("/api/project/:id/page/{page_id}"),
        "/api/project/{}/page/{}"
    );
}

#[test]
fn every_exception_names_a_call_the_spec_makes() {
    let spec: BTreeSet<Call> = SPECS.iter().flat_map(|(_, s)| spec_calls(s)).collect();
    for (call, _) in SERVED_AS {
        assert!(
            spec.contains(&Call::parse(call)),
            "{call} is not in the spec"
        );
    }
    for call in [
        "GET /api/block-categories/blocks",
        "POST /api/tables/{}/import",
        "GET /api/transactions/{}/{}",
        "GET /erp/export-blocks",
    ] {
        assert!(spec.contains(&Call::parse(call)), "{call} not read");
    }
}
