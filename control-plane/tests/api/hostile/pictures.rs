//! Site pictures (issue 40, "fair shares"): the Chromium that pictures a published home page
//! runs the owner's code, so each one is bounded (`control-plane/src/confine.rs`) and the
//! pictures are shared between accounts (`control-plane/src/pictures/site.rs`). Each test performs
//! the attack through real publishes and a real Chromium, and asserts the bound with the figures
//! the picture's cgroup kept; they print those figures (`-- --nocapture`).

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    ops::Deref,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use serde_json::json;
use vitrine_control::pictures::{
    Run,
    screenshot::{PIDS, SITE_SHOTS, TIMEOUT},
};
use vitrine_shared::ids::{DeployId, ProjectId};
use vitrine_shared::{dual_test, testing::Backend};

use crate::{
    helpers::{Session, TestApp, json_ok, metric, wait_until},
    publish::{PublishApp, home_page_id, new_project, project, publish},
};

/// A control plane that pictures every publish, with `BUDGET` pictures per account and hour
/// (the attacker below publishes three pages).
/// One at a time in this binary: each test times pictures on a machine that other tests' own
/// Chromium would otherwise share.
struct PictureApp(
    PublishApp,
    #[allow(dead_code)] tokio::sync::MutexGuard<'static, ()>,
);

static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const BUDGET: u32 = 3;

impl PictureApp {
    async fn new(backend: Backend) -> PictureApp {
        Self::with_budget(backend, BUDGET).await
    }

    async fn with_budget(backend: Backend, budget: u32) -> PictureApp {
        let turn = ONE_AT_A_TIME.lock().await;
        let app = PublishApp::with_settings(backend, |s| {
            s.site_screenshots = true;
            s.site_screenshots_per_account_per_hour = budget;
        })
        .await;
        PictureApp(app, turn)
    }
}

/// The same, with a budget of [`SMALL_BUDGET`] pictures per account and hour.
struct SmallBudgetApp(PictureApp);

const SMALL_BUDGET: u32 = 2;

impl SmallBudgetApp {
    async fn new(backend: Backend) -> SmallBudgetApp {
        SmallBudgetApp(PictureApp::with_budget(backend, SMALL_BUDGET).await)
    }
}

impl Deref for SmallBudgetApp {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.0
    }
}

impl Deref for PictureApp {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.0
    }
}

/// The memory bound of each Chromium (`CHROMIUM_MEMORY_MB`'s default).
const MEMORY_BOUND: u64 = 512 << 20;

/// How soon another tenant's picture is ready while an attacker's run.
const READY_WITHIN: Duration = Duration::from_secs(5);

/// A project whose home page runs `js`; answers its id.
async fn site(app: &TestApp, s: &Session, name: &str, js: &str) -> i64 {
    let pid = new_project(app, s, name).await;
    let home = home_page_id(app, s, pid).await;
    let block = json!({"uid": "b", "name": "b", "template": "<h1>Olá</h1>",
        "css": "h1{height:2000px;background:rgb(29,78,216)}", "js": js});
    json_ok(
        app.post(s, &format!("/api/page/{home}"), json!({"blocks": [block]}))
            .await,
    )
    .await;
    pid
}

/// Publishes and answers the new deploy's id.
async fn deploy(app: &TestApp, s: &Session, pid: i64) -> i64 {
    publish(app, s, pid).await["deploy"]["id"].as_i64().unwrap()
}

/// Waits until `deploy`'s picture is the project's card; answers how long that took.
async fn pictured(app: &TestApp, s: &Session, pid: i64, deploy: i64, within: Duration) -> Duration {
    let url = format!("/api/projects/{pid}/deploys/{deploy}/screenshot");
    wait_until("the picture on the card", within, async || {
        project(app, s, pid).await["thumbnail"] == url.as_str()
    })
    .await
}

/// Waits for the picture of `deploy` to be over, whatever came of it.
async fn run_of(app: &TestApp, deploy: i64, within: Duration) -> Run {
    let state = app.app.state();
    let mut found = None;
    wait_until("the picture to end", within, async || {
        found = state
            .pictures
            .runs()
            .into_iter()
            .find(|r| r.job.deploy_id == DeployId(deploy));
        found.is_some()
    })
    .await;
    found.unwrap()
}

/// The figures of a run, and the bounds: memory under the cgroup's limit, CPU at most one core
/// for the run's length, the run killed at the timeout.
fn assert_bounded(what: &str, app: &TestApp, run: &Run) {
    let u = run.usage;
    let cpu = u.cpu_ns.map(|ns| Duration::from_nanos(ns).as_secs_f64());
    eprintln!(
        "{what}: outcome {}, took {:.2} s, peak memory {:?} MiB, CPU {:?} s, OOM kills {:?}, \
         peak processes and threads {:?}, refused {:?} (confinement {})",
        run.outcome,
        run.took.as_secs_f64(),
        u.peak_bytes.map(|b| b >> 20),
        cpu.map(|c| (c * 100.0).round() / 100.0),
        u.oom_kills,
        u.peak_pids,
        u.pids_refused,
        app.app.state().confiner.describe(),
    );
    // The timeout, and the cell's clean-up after it.
    assert!(
        run.took <= TIMEOUT + Duration::from_secs(3),
        "{what}: {run:?}"
    );
    if app.app.state().confiner.describe().starts_with("cgroup") {
        let peak = u.peak_bytes.expect("the cgroup's peak");
        assert!(peak <= MEMORY_BOUND, "{what}: {peak} bytes");
        if let Some(pids) = u.peak_pids {
            assert!(pids <= PIDS, "{what}: {pids} processes and threads");
        }
        let cpu = cpu.expect("the cgroup's CPU time");
        // One core for as long as it ran, and a little for the period's rounding.
        assert!(
            cpu <= run.took.as_secs_f64() * 1.05 + 0.2,
            "{what}: {cpu} s of CPU in {:?}",
            run.took
        );
    }
}

/// Allocates 3 GB, 64 MB at a time, touching every page (typed arrays live outside V8's heap,
/// so only the cgroup stops them), and grows V8's heap too.
const ALLOCATE_3_GB: &str = "var keep=[],mb=0;function grow(){for(var i=0;i<4&&mb<3072;i++){\
    var a=new Uint8Array(64<<20);for(var j=0;j<a.length;j+=4096)a[j]=1;keep.push(a);mb+=64}\
    var o=[];for(var k=0;k<2e5;k++)o.push({k:k,s:'x'+k});keep.push(o);\
    if(mb<3072)setTimeout(grow,0)}grow();";

/// Four web workers that never stop.
const SPIN_4_WORKERS: &str = "for(var i=0;i<4;i++){new Worker(URL.createObjectURL(\
    new Blob(['for(;;){}'],{type:'text/javascript'})))}";

/// Four hundred web workers (each a thread, or more), more than the cell's process bound; the
/// memory bound may stop them first.
const ASK_400_WORKERS: &str = "for(var i=0;i<400;i++){try{new Worker(URL.createObjectURL(\
    new Blob(['setInterval(function(){},1e9)'],{type:'text/javascript'})))}catch(e){}}";

dual_test!(
    async fn hostile_pages_cost_at_most_their_bound_and_another_tenants_picture_is_ready_within_5_s(
        app: PictureApp,
    ) {
        // A slot for the attacker and one for the victim.
        const { assert!(SITE_SHOTS >= 2) };
        let attacker = app.register("pic-attacker@example.com").await;
        let victim = app.register("pic-victim@example.com").await;
        let bomb = site(&app, &attacker, "Bomba", ALLOCATE_3_GB).await;
        let spinner = site(&app, &attacker, "Pião", SPIN_4_WORKERS).await;
        let crowd = site(&app, &attacker, "Multidão", ASK_400_WORKERS).await;
        let honest = site(&app, &victim, "Padaria", "").await;

        let bomb_deploy = deploy(&app, &attacker, bomb).await;
        let spinner_deploy = deploy(&app, &attacker, spinner).await;
        let crowd_deploy = deploy(&app, &attacker, crowd).await;
        // While the attacker's first page is being pictured, another tenant publishes.
        let state = app.app.state();
        let started = async |pid: i64, deploy: i64| {
            state.pictures.running().contains(&ProjectId(pid))
                || state
                    .pictures
                    .runs()
                    .iter()
                    .any(|r| r.job.deploy_id == DeployId(deploy))
        };
        wait_until("the bomb's picture to start", TIMEOUT, async || {
            started(bomb, bomb_deploy).await
        })
        .await;
        let first = deploy(&app, &victim, honest).await;
        let ready = pictured(&app, &victim, honest, first, READY_WITHIN).await;
        eprintln!("another tenant's picture, while the 3 GB page runs: {ready:?}");
        // And again while the spinning page runs.
        wait_until("the spinner's picture to start", 2 * TIMEOUT, async || {
            started(spinner, spinner_deploy).await
        })
        .await;
        let second = deploy(&app, &victim, honest).await;
        let ready = pictured(&app, &victim, honest, second, READY_WITHIN).await;
        eprintln!("another tenant's picture, while the 4-worker page runs: {ready:?}");

        let bomb_run = run_of(&app, bomb_deploy, 2 * TIMEOUT).await;
        assert_bounded("3 GB page", &app, &bomb_run);
        let spinner_run = run_of(&app, spinner_deploy, 2 * TIMEOUT).await;
        assert_bounded("4 spinning workers", &app, &spinner_run);
        let crowd_run = run_of(&app, crowd_deploy, 2 * TIMEOUT).await;
        assert_bounded("400 workers", &app, &crowd_run);
        // The spinning page never lets the picture finish: it is killed at the timeout.
        assert!(spinner_run.took >= TIMEOUT, "{spinner_run:?}");
        assert_eq!(spinner_run.outcome, "failed");
        // The attacker's pages ran one after the other: an account holds one Chromium at once.
        let runs = state.pictures.runs();
        let at = |d: i64| {
            runs.iter()
                .position(|r| r.job.deploy_id == DeployId(d))
                .unwrap()
        };
        assert!(at(bomb_deploy) < at(spinner_deploy));
    }
);

/// The address of this machine that a packet to the outside would leave from (none when it
/// has no route out), so the listeners below are reachable from the host's network.
fn outward_address() -> Option<IpAddr> {
    let probe = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    probe.connect("192.0.2.1:9").ok()?;
    let ip = probe.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

dual_test!(
    async fn a_pictured_page_reaches_nothing_past_its_origin_not_even_by_webrtc_udp(
        app: PictureApp,
    ) {
        // A STUN/TURN server's place on the host: a UDP and a TCP listener on every address.
        let udp = tokio::net::UdpSocket::bind("0.0.0.0:0").await.unwrap();
        let tcp = tokio::net::TcpListener::bind("0.0.0.0:0").await.unwrap();
        let (udp_port, tcp_port) = (
            udp.local_addr().unwrap().port(),
            tcp.local_addr().unwrap().port(),
        );
        let received = Arc::new(AtomicUsize::new(0));
        let listening = tokio::spawn({
            let received = received.clone();
            async move {
                let mut buf = [0u8; 2048];
                loop {
                    tokio::select! {
                        _ = udp.recv_from(&mut buf) => received.fetch_add(1, Ordering::SeqCst),
                        _ = tcp.accept() => received.fetch_add(1, Ordering::SeqCst),
                    };
                }
            }
        });
        let mut hosts = vec![IpAddr::V4(Ipv4Addr::LOCALHOST)];
        hosts.extend(outward_address());
        let mut js = String::from("var s=[];");
        for host in &hosts {
            let udp = SocketAddr::new(*host, udp_port);
            let tcp = SocketAddr::new(*host, tcp_port);
            js.push_str(&format!(
                "s.push({{urls:'stun:{udp}'}},{{urls:'turn:{udp}?transport=udp',username:'u',credential:'c'}},\
                 {{urls:'turn:{tcp}?transport=tcp',username:'u',credential:'c'}});\
                 try{{fetch('http://{tcp}/direct').catch(function(){{}})}}catch(e){{}}\
                 try{{new WebSocket('ws://{tcp}/')}}catch(e){{}}\
                 new Image().src='http://{tcp}/img.png';"
            ));
        }
        // After the offer, the page holds its main thread for 2.5 s of real time: Chromium's
        // virtual time (`--virtual-time-budget`) would otherwise take the picture before ICE
        // gathering sends anything. Without the namespace (Chromium run by hand with the old
        // flags), this page's STUN request reaches the host's listener.
        js.push_str(
            "var pc=new RTCPeerConnection({iceServers:s});pc.createDataChannel('x');\
             pc.createOffer().then(function(o){return pc.setLocalDescription(o)})\
             .then(function(){var t=Date.now();while(Date.now()-t<2500){}});",
        );
        let s = app.register("pic-net@example.com").await;
        let pid = site(&app, &s, "Rede", &js).await;
        let did = deploy(&app, &s, pid).await;
        let run = run_of(&app, did, 2 * TIMEOUT).await;
        // The page ran to its picture, ICE gathering and all.
        assert_eq!(run.outcome, "taken", "{run:?}");
        pictured(&app, &s, pid, did, READY_WITHIN).await;
        // STUN retransmits for seconds; anything that left would have arrived by now.
        tokio::time::sleep(Duration::from_millis(500)).await;
        listening.abort();
        eprintln!(
            "packets and connections from the page to {hosts:?}: {} (confinement {})",
            received.load(Ordering::SeqCst),
            app.app.state().confiner.describe()
        );
        assert_eq!(received.load(Ordering::SeqCst), 0);
    }
);

dual_test!(
    async fn a_burst_of_deploys_keeps_one_pending_picture_and_an_account_over_budget_gets_no_more(
        app: SmallBudgetApp,
    ) {
        let state = app.app.state();
        let owner = app.register("pic-burst@example.com").await;
        let other = app.register("pic-other@example.com").await;
        let pid = site(&app, &owner, "Rajada", "").await;
        let theirs = site(&app, &other, "Vizinho", "").await;

        let mut deploys = Vec::new();
        for _ in 0..5 {
            deploys.push(deploy(&app, &owner, pid).await);
            assert!(state.pictures.pending(ProjectId(pid)) <= 1);
        }
        let last = *deploys.last().unwrap();
        wait_until("the burst's pictures", 3 * TIMEOUT, async || {
            state.pictures.pending(ProjectId(pid)) == 0
                && !state.pictures.running().contains(&ProjectId(pid))
        })
        .await;
        let taken: Vec<i64> = state
            .pictures
            .runs()
            .iter()
            .filter(|r| r.job.project_id == ProjectId(pid))
            .map(|r| r.job.deploy_id.get())
            .collect();
        let replaced = metric(
            &app,
            r#"vitrine_control_site_screenshots_total{outcome="replaced"}"#,
        )
        .await;
        let over = metric(
            &app,
            r#"vitrine_control_site_screenshots_total{outcome="over_budget"}"#,
        )
        .await;
        eprintln!(
            "5 deploys in a burst: pictures {taken:?}, replaced {replaced}, over budget {over}"
        );
        // Within the budget, and every deploy accounted for: pictured, replaced or refused.
        assert!(taken.len() <= SMALL_BUDGET as usize, "{taken:?}");
        assert_eq!(taken.len() as f64 + replaced + over, deploys.len() as f64);
        if replaced > 0.0 {
            // The replaced ones gave way to the newest.
            assert_eq!(taken.last(), Some(&last));
        }

        // The budget is spent: one more deploy gets no picture; another account's still does.
        let refused = deploy(&app, &owner, pid).await;
        wait_until("the refusal", READY_WITHIN, async || {
            metric(
                &app,
                r#"vitrine_control_site_screenshots_total{outcome="over_budget"}"#,
            )
            .await
                > over
        })
        .await;
        let started = Instant::now();
        let did = deploy(&app, &other, theirs).await;
        pictured(&app, &other, theirs, did, READY_WITHIN).await;
        eprintln!("the other account's picture: {:?}", started.elapsed());
        assert!(
            state
                .pictures
                .runs()
                .iter()
                .all(|r| r.job.deploy_id != DeployId(refused))
        );
        assert_eq!(state.pictures.pending(ProjectId(pid)), 0);
    }
);
