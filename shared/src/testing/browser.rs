//! A real browser for the tests where only a browser can tell (feature `testing`): headless
//! Chromium (Debian's `chromium`, which `scripts/test.sh` installs), driven over the Chrome
//! DevTools Protocol, and a [`Beacon`] that hears whatever a script calls home with. Without
//! Chromium the test fails with that instruction; it never skips.
//!
//! Why the protocol rather than `chromium --dump-dom`: a navigation that ends in a download
//! (what `Content-Disposition: attachment` asks for) leaves the headless command handler
//! hanging now and then, so such a test would depend on a timeout. Over the protocol the
//! navigation's own answer says that no document was shown (`net::ERR_ABORTED`), downloads are
//! denied outright, and a document is read once its `load` lifecycle event has fired. Only five
//! commands are used, so they are written here over a WebSocket (tokio-tungstenite) rather than
//! through a client crate whose generated bindings cover the whole protocol.
//!
//! [`Beacon::script_svg`] is an SVG whose script, if a browser ever runs it, marks its own DOM
//! (`data-ran`) and calls the beacon with a synchronous request, so the call has been heard
//! before the document finishes loading: no waiting, no timing. [`Beacon::plain_url`] serves
//! that SVG with no defence at all, so a test can first show that the browser does run it, and
//! that both signals are seen, when nothing stops it.

use std::{
    collections::VecDeque,
    path::PathBuf,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    process::{Child, Command},
};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, tungstenite::Message};

/// Debian's Chromium, which `scripts/test.sh` installs.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The longest Chromium may take to start, or a page to load, on a loaded machine.
const LIMIT: Duration = Duration::from_secs(120);

/// What a browser made of an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    /// A document was shown: its DOM once loaded (`outerHTML` of the root element).
    Document(String),
    /// No document was shown, with the navigation's error (`net::ERR_ABORTED` for a download).
    NotShown(String),
}

impl Load {
    /// The DOM, or an empty string when no document was shown.
    pub fn dom(&self) -> &str {
        match self {
            Load::Document(dom) => dom,
            Load::NotShown(_) => "",
        }
    }
}

/// Headless Chromium with a profile and a home of its own, and its DevTools connection.
pub struct Chromium {
    _child: Child,
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Events read while waiting for a command's answer, for the waits that come after.
    events: VecDeque<Value>,
    _home: tempfile::TempDir,
}

impl Chromium {
    /// Starts Chromium; `hosts` resolve to 127.0.0.1 (`*.localhost` always does). Panics with
    /// an instruction when Chromium is not installed.
    pub async fn start(hosts: &[&str]) -> Chromium {
        let binary = PathBuf::from(CHROMIUM);
        assert!(
            binary.exists(),
            "this test needs Chromium at {CHROMIUM} (apt-get install chromium; scripts/test.sh does)"
        );
        let home = tempfile::tempdir().expect("temp dir");
        let profile = home.path().join("profile");
        let mut command = Command::new(&binary);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .env("HOME", home.path())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true);
        if !hosts.is_empty() {
            let rules: Vec<String> = hosts.iter().map(|h| format!("MAP {h} 127.0.0.1")).collect();
            command.arg(format!("--host-resolver-rules={}", rules.join(",")));
        }
        let child = command.arg("about:blank").spawn().expect("Chromium starts");
        // With port 0 Chromium picks a port and writes it, and the browser's WebSocket path,
        // to this file once it listens.
        let active = profile.join("DevToolsActivePort");
        let started = Instant::now();
        let endpoint = loop {
            if let Ok(text) = std::fs::read_to_string(&active)
                && let Some((port, path)) = text.split_once('\n')
                && path.trim().starts_with("/devtools/")
            {
                break format!("ws://127.0.0.1:{}{}", port.trim(), path.trim());
            }
            assert!(
                started.elapsed() < LIMIT,
                "Chromium did not open its DevTools port"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let (ws, _) = tokio_tungstenite::connect_async(endpoint.as_str())
            .await
            .expect("DevTools connection");
        let mut chromium = Chromium {
            _child: child,
            ws,
            next_id: 0,
            events: VecDeque::new(),
            _home: home,
        };
        chromium
            .call(
                None,
                "Browser.setDownloadBehavior",
                json!({"behavior": "deny"}),
            )
            .await;
        chromium
    }

    /// Sends one command (to a page's session, or to the browser) and returns its result.
    async fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            message["sessionId"] = json!(s);
        }
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .expect("DevTools send");
        loop {
            let message = self.read(method).await;
            if message["id"] == json!(id) {
                assert!(
                    message.get("error").is_none(),
                    "{method} failed: {}",
                    message["error"]
                );
                return message["result"].clone();
            }
            self.events.push_back(message);
        }
    }

    /// The next message from Chromium.
    async fn read(&mut self, waiting_for: &str) -> Value {
        loop {
            let next = tokio::time::timeout(LIMIT, self.ws.next())
                .await
                .unwrap_or_else(|_| {
                    panic!("Chromium did not answer {waiting_for} within {LIMIT:?}")
                })
                .expect("DevTools connection open")
                .expect("DevTools message");
            if let Message::Text(text) = next {
                return serde_json::from_str(text.as_str()).expect("DevTools JSON");
            }
        }
    }

    /// Waits for the event that `matches`, among those already read and those to come.
    async fn event(&mut self, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.events.iter().position(&matches) {
            return self.events.remove(at).expect("event");
        }
        loop {
            let message = self.read(what).await;
            if matches(&message) {
                return message;
            }
            self.events.push_back(message);
        }
    }

    /// Opens `url` in a new tab, as a visitor following a link would, and reports what it
    /// showed.
    pub async fn load(&mut self, url: &str) -> Load {
        let target = self
            .call(None, "Target.createTarget", json!({"url": "about:blank"}))
            .await["targetId"]
            .clone();
        let session = self
            .call(
                None,
                "Target.attachToTarget",
                json!({"targetId": target, "flatten": true}),
            )
            .await["sessionId"]
            .as_str()
            .expect("session id")
            .to_string();
        let s = Some(session.as_str());
        self.call(s, "Page.enable", json!({})).await;
        self.call(
            s,
            "Page.setLifecycleEventsEnabled",
            json!({"enabled": true}),
        )
        .await;
        let navigation = self.call(s, "Page.navigate", json!({"url": url})).await;
        let load = match navigation["errorText"].as_str().filter(|e| !e.is_empty()) {
            Some(error) => Load::NotShown(error.to_string()),
            None => {
                let loader = navigation["loaderId"].clone();
                self.event("the page's load event", |m| {
                    m["method"] == "Page.lifecycleEvent"
                        && m["sessionId"] == json!(session)
                        && m["params"]["name"] == "load"
                        && m["params"]["loaderId"] == loader
                })
                .await;
                let dom = self
                    .call(
                        s,
                        "Runtime.evaluate",
                        json!({
                            "expression": "document.documentElement ? document.documentElement.outerHTML : ''",
                            "returnByValue": true,
                        }),
                    )
                    .await;
                Load::Document(dom["result"]["value"].as_str().unwrap_or("").to_string())
            }
        };
        self.call(None, "Target.closeTarget", json!({"targetId": target}))
            .await;
        self.events.retain(|m| m["sessionId"] != json!(session));
        load
    }
}

/// A loopback HTTP listener that records the path of every call the script makes (`/ran/…`
/// and `/img/…`, answered `204`, readable from any origin), and serves
/// [`Beacon::script_svg`] with no defence under `/plain/…`.
pub struct Beacon {
    pub addr: std::net::SocketAddr,
    heard: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Beacon {
    pub async fn start() -> Beacon {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let heard = Arc::new(Mutex::new(Vec::new()));
        let svg = Self::svg_for(addr, "plain");
        let log = heard.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let (log, svg) = (log.clone(), svg.clone());
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut chunk = [0u8; 2048];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&chunk[..n]),
                        }
                    }
                    let line = String::from_utf8_lossy(&head);
                    let path = line.split(' ').nth(1).unwrap_or("").to_string();
                    let answer = if path.starts_with("/plain/") {
                        format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: image/svg+xml\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{svg}",
                            svg.len()
                        )
                    } else if path.starts_with("/ran/") || path.starts_with("/img/") {
                        // Heard before it is answered: a synchronous request's caller goes on
                        // only once this is recorded.
                        log.lock().expect("beacon log").push(path);
                        "HTTP/1.1 204 No Content\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\r\n".to_string()
                    } else {
                        // What a browser asks for by itself (a favicon): not the script's call.
                        "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                            .to_string()
                    };
                    let _ = stream.write_all(answer.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Beacon { addr, heard, task }
    }

    fn svg_for(addr: std::net::SocketAddr, tag: &str) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"red\"/><script>document.documentElement.setAttribute(\"data-ran\",\"{tag}\");try{{var x=new XMLHttpRequest();x.open(\"GET\",\"http://{addr}/ran/{tag}\",false);x.send();}}catch(e){{}}new Image().src=\"http://{addr}/img/{tag}\";</script></svg>"
        )
    }

    /// An SVG whose script marks its DOM with `data-ran="{tag}"` and calls this beacon at
    /// `/ran/{tag}`, should it ever run.
    pub fn script_svg(&self, tag: &str) -> String {
        Self::svg_for(self.addr, tag)
    }

    /// [`Beacon::script_svg`]`("plain")`, served by the beacon itself with no defence.
    pub fn plain_url(&self) -> String {
        format!("http://{}/plain/script.svg", self.addr)
    }

    /// The paths of the calls heard so far.
    pub fn heard(&self) -> Vec<String> {
        self.heard.lock().expect("beacon log").clone()
    }
}

impl Drop for Beacon {
    fn drop(&mut self) {
        self.task.abort();
    }
}
