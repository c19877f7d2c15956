//! Thumbnails of library blocks and templates, taken by headless Chromium (Debian's
//! `chromium`; `CHROMIUM_PATH` names another). Chromium is the browser the editor targets, so a
//! thumbnail shows what owners will see; it is driven through its own command line
//! (`--screenshot`, `--dump-dom`) rather than a DevTools client, which keeps the control plane
//! free of a browser-automation dependency.
//!
//! Trim crops the shot to the content's height (up to the asked size): a first run prints the
//! document's height, the second takes the picture.
//!
//! Block code is owners' code (a business's library), so Chromium runs it as untrusted: with its
//! own sandbox (never `--no-sandbox`; as an unprivileged user when the control plane is root,
//! `CHROMIUM_USER`), with an empty environment (no secret of the control plane's), and with the
//! document served over a throwaway loopback origin that is also its proxy ([`Origin`]), so the
//! page reaches no file, no network and no other local service.
//!
//! A published site's home page is pictured the same way after each publish
//! ([`crate::pictures`]), a home page with live lists as the edge renders it, with its records:
//! its assets (stylesheets, fonts, images of the deploy) are served by that
//! same origin from the deploy's own files, so the picture is what visitors see, and still
//! nothing else is reachable. The picture is stored with the deploy
//! (`deploys/{project}/{deploy}/screenshot.png`) and the project's `thumbnail` names it. It runs
//! in the background, at most [`SITE_SHOTS`] at a time, shared fairly between accounts
//! ([`crate::pictures`]): a publish never waits for it and never fails because of it, and
//! without Chromium the project keeps its letter tile.
//!
//! Every Chromium is bounded ([`crate::confine`]): a cgroup of its own (memory, one core,
//! processes), a network namespace where the origin is the only thing reachable (so WebRTC's
//! UDP cannot leave either), a V8 heap of [`V8_HEAP_MB`], one renderer process where the page
//! allows it, and [`TIMEOUT`] per run, after which everything left of it is killed.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use bytes::Bytes;
use futures::future::BoxFuture;
use tokio::process::Command;
use vitrine_shared::ids::{DeployId, ProjectId};
use vitrine_shared::manifest::{Manifest, deploy_prefix, manifest_key};

pub use crate::error::ShotError;
use crate::{
    base::Core,
    confine::{Netns, Usage},
    external_lists::Answers,
};

/// Files the pictured page may load besides itself: a path (`/_assets/…`) gives its content
/// type and body, or nothing (a 404).
pub type Resources =
    Arc<dyn Fn(String) -> BoxFuture<'static, Option<(String, Bytes)>> + Send + Sync>;

/// How many site pictures are taken at once (each is a Chromium).
pub const SITE_SHOTS: usize = 2;

/// How long one Chromium run may take before it is killed, whatever it is doing.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// Processes and threads one Chromium may have at once (its cgroup's `pids.max`): a browser
/// picturing a page runs about a hundred threads in five or six processes.
pub const PIDS: u64 = 256;

/// The V8 heap of a pictured page (`--max-old-space-size`): a page that allocates more is
/// stopped by V8 long before the cgroup's memory bound.
pub const V8_HEAP_MB: u64 = 256;

/// The size of a site's picture: a desktop window's first screen.
pub const SITE_SHOT_SIZE: (u32, u32) = (1280, 800);

/// Where Chromium is: the setting, else Debian's path when it exists.
pub fn chromium(setting: Option<&Path>) -> Option<PathBuf> {
    match setting {
        Some(p) => Some(p.to_path_buf()),
        None => {
            let debian = Path::new("/usr/bin/chromium");
            debian.exists().then(|| debian.to_path_buf())
        }
    }
}

/// A `size` parameter: `width,height`, each 100–4000 (spec 2 §9 defaults: 1280,600 for
/// blocks, 1280,1280 for templates).
pub fn parse_size(size: Option<&str>, default: (u32, u32)) -> Result<(u32, u32), String> {
    let Some(size) = size.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(default);
    };
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (100..=4000).contains(n))
    };
    match size.split_once(',') {
        Some((w, h)) => match (parse(w), parse(h)) {
            (Some(w), Some(h)) => Ok((w, h)),
            _ => Err("size must be two numbers from 100 to 4000, as width,height".into()),
        },
        None => Err("size must be width,height (for example 1280,600)".into()),
    }
}

const MEASURE: &str = "<script>addEventListener('load',function(){document.title='vt-height:'+Math.ceil(document.documentElement.scrollHeight)})</script>";

/// The address the page is loaded from. It never resolves: Chromium sends every request to
/// [`Origin`], its proxy, which answers this one URL with the document and nothing else.
const PAGE_URL: &str = "http://thumbnail.vitrine.invalid/";
const PAGE_HOST: &str = "thumbnail.vitrine.invalid";

/// A throwaway HTTP proxy on loopback that serves the document. Every request the page makes
/// (frames, images, scripts, fetches) reaches it and gets a 404 (or, for a path on the page's
/// own origin that `resources` knows, that file), so the page sees neither the network nor
/// this machine's other services; the document is not a file, so the page has no `file://`
/// origin to read files from (an `http:` page may not load `file:` URLs at all).
struct Origin {
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Origin {
    fn serve(
        listener: tokio::net::TcpListener,
        document: String,
        resources: Option<Resources>,
    ) -> std::io::Result<Origin> {
        use axum::{
            body::Body,
            http::{Method, Request, StatusCode, header},
            response::{IntoResponse, Response},
        };
        let addr = listener.local_addr()?;
        let document = std::sync::Arc::new(document);
        let app = axum::Router::new().fallback(move |req: Request<Body>| {
            let document = document.clone();
            let resources = resources.clone();
            async move {
                let get = req.method() == Method::GET;
                if get && *req.uri() == PAGE_URL {
                    return (
                        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                        document.as_str().to_owned(),
                    )
                        .into_response();
                }
                let own = req.uri().host() == Some(PAGE_HOST);
                let found = match resources {
                    Some(files) if get && own => files(req.uri().path().to_string()).await,
                    _ => None,
                };
                match found {
                    Some((content_type, body)) => {
                        ([(header::CONTENT_TYPE, content_type)], body).into_response()
                    }
                    None => Response::from(StatusCode::NOT_FOUND.into_response()),
                }
            }
        });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await;
        });
        Ok(Origin {
            addr,
            stop: Some(stop),
        })
    }
}

impl Drop for Origin {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// The `uid:gid` Chromium runs as when this process is root: Chromium refuses its sandbox to
/// root, and an unprivileged user cannot read what root keeps. `None` when not root.
// geteuid has no safe wrapper in std (the workspace denies unsafe code but here).
#[allow(unsafe_code)]
fn unprivileged(user: &str) -> Result<Option<(u32, u32)>, ShotError> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    parse_user(user).map(Some)
}

/// `uid:gid`, neither of them root's.
fn parse_user(user: &str) -> Result<(u32, u32), ShotError> {
    let parsed = user
        .split_once(':')
        .and_then(|(u, g)| Some((u.trim().parse().ok()?, g.trim().parse().ok()?)));
    match parsed {
        Some((0, _) | (_, 0)) | None => Err(ShotError::Failed(format!(
            "CHROMIUM_USER must be uid:gid of an unprivileged user, not {user:?}"
        ))),
        Some(ids) => Ok(ids),
    }
}

/// Chromium with its sandbox, an empty environment but for its own directories (no secret of
/// the control plane's environment reaches it), as `user` when given, with every request sent
/// to `proxy`, WebRTC's UDP refused unless proxied (a second guard to the namespace), a V8 heap
/// of [`V8_HEAP_MB`] and one renderer process (a soft limit: site isolation may still give a
/// frame of another site a process of its own; the cgroup's process bound holds regardless).
fn base_command(
    browser: &Path,
    dir: &Path,
    proxy: std::net::SocketAddr,
    user: Option<(u32, u32)>,
) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--mute-audio",
        "--disable-background-networking",
        "--disable-sync",
        // Loopback goes through the proxy as well.
        "--proxy-bypass-list=<-loopback>",
        "--virtual-time-budget=3000",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        "--renderer-process-limit=1",
    ])
    .arg(format!("--js-flags=--max-old-space-size={V8_HEAP_MB}"))
    .arg(format!("--proxy-server=http://{proxy}"))
    .arg(format!("--user-data-dir={}", dir.join("profile").display()))
    .stdin(std::process::Stdio::null())
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .kill_on_drop(true);
    browser_env(&mut c, dir);
    if let Some((uid, gid)) = user {
        // std drops the supplementary groups too when it changes the user.
        c.uid(uid).gid(gid);
    }
    c
}

/// Chromium's whole environment: its own directories under `dir` and a plain `PATH` (its
/// Debian launcher is a shell script). Nothing of the control plane's (database URL, keys).
fn browser_env(c: &mut Command, dir: &Path) {
    c.env_clear()
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join(".config"))
        .env("XDG_CACHE_HOME", dir.join(".cache"))
        .env("PATH", "/usr/bin:/bin");
}

/// Starts `c` in the picture's cell and namespace, and waits for it at most [`TIMEOUT`].
async fn run(
    mut c: Command,
    cell: &crate::confine::Cell,
    netns: Option<&Netns>,
) -> Result<std::process::Output, ShotError> {
    cell.confine(&mut c);
    let child = match netns {
        Some(netns) => netns.spawn(c).await,
        None => c.spawn(),
    };
    let child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ShotError::NoBrowser),
        Err(e) => return Err(ShotError::Failed(e.to_string())),
    };
    // On time-out the child is dropped, which kills it; the cell's close kills the rest.
    match tokio::time::timeout(TIMEOUT, child.wait_with_output()).await {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(e)) => Err(ShotError::Failed(e.to_string())),
        Err(_) => Err(ShotError::Failed("timed out".into())),
    }
}

/// A PNG of `document` at `width`×`height`; with `trim`, only as tall as the content.
pub async fn take(
    core: &Core,
    document: &str,
    size: (u32, u32),
    trim: bool,
) -> Result<Vec<u8>, ShotError> {
    take_with(core, document, size, trim, None).await.0
}

/// [`take`], with the page's own files served from `resources`; also answers what its
/// Chromium used, whether or not a picture came of it.
pub async fn take_with(
    core: &Core,
    document: &str,
    size: (u32, u32),
    trim: bool,
    resources: Option<Resources>,
) -> (Result<Vec<u8>, ShotError>, Usage) {
    let failed = |e: std::io::Error| ShotError::Failed(e.to_string());
    let cell = match core.confiner.cell() {
        Ok(cell) => cell,
        Err(e) => return (Err(failed(e)), Usage::default()),
    };
    let png = shoot(core, &cell, document, size, trim, resources).await;
    (png, cell.close().await)
}

async fn shoot(
    core: &Core,
    cell: &crate::confine::Cell,
    document: &str,
    (width, height): (u32, u32),
    trim: bool,
    resources: Option<Resources>,
) -> Result<Vec<u8>, ShotError> {
    let browser = chromium(core.settings.chromium_path.as_deref());
    let browser = browser.as_deref().ok_or(ShotError::NoBrowser)?;
    let failed = |e: std::io::Error| ShotError::Failed(e.to_string());
    let user = unprivileged(&core.settings.chromium_user)?;
    let dir = tempfile::tempdir().map_err(failed)?;
    if let Some((uid, gid)) = user {
        std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).map_err(failed)?;
    }
    // The origin listens inside the namespace, where it is all there is to reach.
    let netns = if core.confiner.netns() {
        Some(Netns::new().await.map_err(failed)?)
    } else {
        None
    };
    let listener = match &netns {
        Some(netns) => netns.listen().await,
        None => tokio::net::TcpListener::bind("127.0.0.1:0").await,
    }
    .map_err(failed)?;
    let origin =
        Origin::serve(listener, format!("{document}{MEASURE}"), resources).map_err(failed)?;
    let mut height = height;
    if trim {
        let mut c = base_command(browser, dir.path(), origin.addr, user);
        c.arg(format!("--window-size={width},{height}"))
            .arg("--dump-dom")
            .arg(PAGE_URL);
        let out = run(c, cell, netns.as_ref()).await?;
        let dom = String::from_utf8_lossy(&out.stdout);
        if let Some(h) = dom
            .split("vt-height:")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse::<u32>().ok())
        {
            height = h.clamp(10, height);
        }
    }
    let shot = dir.path().join("shot.png");
    let mut c = base_command(browser, dir.path(), origin.addr, user);
    c.arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(PAGE_URL);
    let out = run(c, cell, netns.as_ref()).await?;
    drop(origin);
    match tokio::fs::read(&shot).await {
        Ok(png) if png.starts_with(b"\x89PNG") => Ok(png),
        _ => Err(ShotError::Failed(
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("no picture was written")
                .to_string(),
        )),
    }
}

/// The key of a deploy's picture in the object store.
pub fn site_shot_key(project_id: ProjectId, deploy_id: DeployId) -> String {
    format!("{}screenshot.png", deploy_prefix(project_id, deploy_id))
}

/// The address the dashboard shows a deploy's picture from (authorized, see
/// `routes::publish::deploy_screenshot`).
pub fn site_shot_url(project_id: ProjectId, deploy_id: DeployId) -> String {
    format!("/api/projects/{project_id}/deploys/{deploy_id}/screenshot")
}

/// Takes a deploy's picture: the outcome (`taken`, `none`, `no_browser`, `failed`) and what its
/// Chromium used.
pub async fn picture(
    core: &Core,
    answers: &Answers,
    project_id: ProjectId,
    deploy_id: DeployId,
) -> (&'static str, Usage) {
    let (shot, usage) = shoot_site(core, answers, project_id, deploy_id).await;
    let outcome = match shot {
        Ok(true) => "taken",
        Ok(false) => "none",
        Err(ShotError::NoBrowser) => {
            tracing::debug!(
                project_id = project_id.get(),
                "no Chromium: the project keeps its letter tile"
            );
            "no_browser"
        }
        Err(e) => {
            tracing::warn!(project_id = project_id.get(), deploy_id = deploy_id.get(), error = %e, ?usage, "site picture failed");
            "failed"
        }
    };
    (outcome, usage)
}

/// Takes and stores the picture of a deploy's home page and records it on the project.
/// A static home page is pictured as the deploy stored it; one with live lists, which the edge
/// renders from the records, is rendered here the same way, with the records as they are now
/// ([`crate::rendering::live_page_document`]). `Ok(false)` when the deploy has no home page.
async fn shoot_site(
    core: &Core,
    answers: &Answers,
    project_id: ProjectId,
    deploy_id: DeployId,
) -> (Result<bool, ShotError>, Usage) {
    let failed = |e: &dyn std::fmt::Display| ShotError::Failed(e.to_string());
    let raw = match core.blobs.get(&manifest_key(project_id, deploy_id)).await {
        Ok(raw) => raw,
        Err(e) => return (Err(failed(&e)), Usage::default()),
    };
    let manifest: Manifest = match serde_json::from_slice(&raw) {
        Ok(m) => m,
        Err(e) => return (Err(failed(&e)), Usage::default()),
    };
    let html = if let Some(home) = manifest.routes.get("/") {
        match core.blobs.get(&home.key).await {
            Ok(html) => String::from_utf8_lossy(&html).into_owned(),
            Err(e) => return (Err(failed(&e)), Usage::default()),
        }
    } else if let Some(live) = manifest.dynamic_pages.get("/") {
        match crate::rendering::live_page_document(core, answers, project_id, live).await {
            Ok(html) => html,
            Err(e) => return (Err(failed(&e)), Usage::default()),
        }
    } else {
        return (Ok(false), Usage::default());
    };
    let routes = Arc::new(manifest.routes);
    let blobs = core.blobs.clone();
    let resources: Resources = Arc::new(move |path: String| {
        let routes = routes.clone();
        let blobs = blobs.clone();
        Box::pin(async move {
            let file = routes.get(&path)?;
            let body = blobs.get(&file.key).await.ok()?;
            Some((file.content_type.clone(), body))
        })
    });
    let (png, usage) = take_with(core, &html, SITE_SHOT_SIZE, false, Some(resources)).await;
    let stored = async {
        let png = png?;
        core.blobs
            .put(&site_shot_key(project_id, deploy_id), Bytes::from(png))
            .await
            .map_err(|e| failed(&e))?;
        let url = site_shot_url(project_id, deploy_id);
        core.store
            .set_project_thumbnail(project_id, deploy_id, &url, chrono::Utc::now().timestamp())
            .await
            .map_err(|e| failed(&e))
    }
    .await;
    (stored, usage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_browser_gets_no_variable_of_the_control_planes_environment() {
        // The test process has cargo's variables (CARGO_*, RUST_*) and whatever the shell
        // exported; the browser's environment is built the same way as here.
        assert!(std::env::vars().any(|(k, _)| k.starts_with("CARGO")));
        let dir = tempfile::tempdir().unwrap();
        let mut c = Command::new("/usr/bin/env");
        browser_env(&mut c, dir.path());
        let out = c.output().await.unwrap();
        let mut names: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.to_string()))
            .collect();
        names.sort();
        assert_eq!(names, ["HOME", "PATH", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"]);
    }

    #[test]
    fn chromium_keeps_its_sandbox_and_root_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let addr = "127.0.0.1:9".parse().unwrap();
        let c = base_command(
            Path::new("chromium"),
            dir.path(),
            addr,
            Some((65534, 65534)),
        );
        let args: Vec<_> = c.as_std().get_args().collect();
        assert!(!args.iter().any(|a| *a == "--no-sandbox"), "{args:?}");
        assert!(
            args.iter()
                .any(|a| *a == "--proxy-server=http://127.0.0.1:9")
        );
        // The user Chromium runs as when the control plane is root may not be root.
        assert_eq!(parse_user("65534:65534").unwrap(), (65534, 65534));
        for bad in ["0:0", "65534:0", "nobody", ""] {
            assert!(parse_user(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_are_checked() {
        assert_eq!(parse_size(None, (1280, 600)), Ok((1280, 600)));
        assert_eq!(parse_size(Some("800, 400"), (1, 1)), Ok((800, 400)));
        assert!(parse_size(Some("800"), (1, 1)).is_err());
        assert!(parse_size(Some("99999,1"), (1, 1)).is_err());
        assert!(parse_size(Some("a,b"), (1, 1)).is_err());
    }
}
