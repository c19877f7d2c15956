//! What one Chromium may cost the machine, whatever its page does (issue 40, "fair shares"):
//! each Chromium that pictures a site or a library block runs in a [`Cell`].
//!
//! - **A cgroup of its own**, every process of the browser in it from before `exec` (a child
//!   process cannot be forked outside it): [`Limits::memory_bytes`] of memory (no swap),
//!   [`Limits::cpu_quota_us`] of CPU per 100 ms (one core), [`Limits::pids`] processes and
//!   threads. cgroup v2 (`memory.max`, `cpu.max`, `pids.max`) where the machine delegates
//!   those controllers, else cgroup v1 (`memory.limit_in_bytes`, `cpu.cfs_quota_us`,
//!   `pids.max`), else rlimits on each process (`RLIMIT_DATA`, `RLIMIT_CPU`), which bound
//!   each process but not the browser as a whole. Start-up says which, in one line, with why
//!   the better ones are missing, and `/metrics` shows it
//!   (`vitrine_control_site_picture_confinement`).
//! - **A network namespace of its own** with only loopback, where the only listener is the
//!   picture's own origin and proxy ([`crate::pictures::screenshot`]): WebRTC's STUN and TURN,
//!   and any other connection that does not go through the proxy, have no route out. Where
//!   namespaces cannot be made (the control plane is not root), Chromium's own policy
//!   (`--force-webrtc-ip-handling-policy=disable_non_proxied_udp`) is the only guard, and
//!   start-up says so.
//! - At the end ([`Cell::close`]), whatever is left in the cgroup is killed and the cgroup
//!   removed: a browser process that outlived the picture ends with it.

use std::{
    fs,
    io::{self, Write},
    os::fd::AsRawFd,
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    time::Duration,
};

use nix::{
    sched::{CloneFlags, unshare},
    sys::{
        resource::{Resource, setrlimit},
        signal::{Signal, kill},
    },
    unistd::Pid,
};

/// The folder, in each hierarchy, under which the cells are made.
const GROUP: &str = "vitrine-pictures";

/// The CPU accounting period; a quota of one period is one core.
const CPU_PERIOD_US: u64 = 100_000;

/// What one Chromium may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Memory of all its processes together, page cache included; no swap.
    pub memory_bytes: u64,
    /// CPU time per 100 ms period, in microseconds (100 000: one core).
    pub cpu_quota_us: u64,
    /// Processes and threads.
    pub pids: u64,
    /// CPU seconds of each process (rlimits only, where there is no cgroup).
    pub cpu_secs: u64,
}

/// Which mechanism bounds the pictures.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    V2 {
        parent: PathBuf,
    },
    /// The `vitrine-pictures` folder in each controller's hierarchy (the same folder twice
    /// where two controllers share one).
    V1 {
        memory: PathBuf,
        cpu: PathBuf,
        cpuacct: Option<PathBuf>,
        pids: PathBuf,
    },
    Rlimits,
}

/// How this process confines its Chromium: found once at start-up ([`Confiner::detect`]).
#[derive(Debug)]
pub struct Confiner {
    kind: Kind,
    limits: Limits,
    netns: bool,
    /// Why the better mechanisms are not in force (empty when cgroup v2 and namespaces are).
    missing: Vec<String>,
}

fn other(message: impl Into<String>) -> io::Error {
    io::Error::other(message.into())
}

impl Confiner {
    /// Finds the best confinement this machine allows (cgroup v2, else v1, else rlimits; a
    /// network namespace when one can be made) and says at start-up which is in force.
    pub async fn detect(limits: Limits) -> Confiner {
        let netns = Netns::new().await.map(drop);
        let confiner = Confiner::at(Path::new("/sys/fs/cgroup"), limits, netns);
        let missing = confiner.missing.join("; ");
        if confiner.kind == Kind::Rlimits || !confiner.netns {
            tracing::warn!(confinement = confiner.describe(), %missing, "site pictures: Chromium confinement");
        } else {
            tracing::info!(confinement = confiner.describe(), %missing, "site pictures: Chromium confinement");
        }
        confiner
    }

    fn at(root: &Path, limits: Limits, netns: io::Result<()>) -> Confiner {
        let mut missing = Vec::new();
        let kind = match cgroup_v2(root) {
            Ok(parent) => Kind::V2 { parent },
            Err(e) => {
                missing.push(format!("cgroup v2: {e}"));
                match cgroup_v1(root) {
                    Ok(kind) => kind,
                    Err(e) => {
                        missing.push(format!("cgroup v1: {e}"));
                        Kind::Rlimits
                    }
                }
            }
        };
        if let Err(e) = &netns {
            missing.push(format!("network namespace: {e}"));
        }
        Confiner {
            kind,
            limits,
            netns: netns.is_ok(),
            missing,
        }
    }

    /// `cgroup-v2`, `cgroup-v1` or `rlimits`, then `+netns` when each Chromium gets a network
    /// namespace of its own.
    pub fn describe(&self) -> &'static str {
        match (&self.kind, self.netns) {
            (Kind::V2 { .. }, true) => "cgroup-v2+netns",
            (Kind::V2 { .. }, false) => "cgroup-v2",
            (Kind::V1 { .. }, true) => "cgroup-v1+netns",
            (Kind::V1 { .. }, false) => "cgroup-v1",
            (Kind::Rlimits, true) => "rlimits+netns",
            (Kind::Rlimits, false) => "rlimits",
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether each Chromium gets a network namespace of its own.
    pub fn netns(&self) -> bool {
        self.netns
    }

    /// A fresh cell for one Chromium, its limits written.
    pub fn cell(&self) -> io::Result<Cell> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let l = self.limits;
        let mut cell = Cell {
            dirs: Vec::new(),
            procs: Arc::new([]),
            kind: self.kind.clone(),
            limits: l,
            name,
        };
        let mut parents: Vec<&Path> = Vec::new();
        match &self.kind {
            Kind::V2 { parent } => parents.push(parent),
            Kind::V1 {
                memory,
                cpu,
                cpuacct,
                pids,
            } => {
                for p in [Some(memory), Some(cpu), cpuacct.as_ref(), Some(pids)]
                    .into_iter()
                    .flatten()
                {
                    if !parents.contains(&p.as_path()) {
                        parents.push(p);
                    }
                }
            }
            Kind::Rlimits => return Ok(cell),
        }
        for parent in parents {
            let dir = parent.join(&cell.name);
            fs::create_dir(&dir)?;
            cell.dirs.push(dir);
        }
        match &self.kind {
            Kind::V2 { .. } => {
                let dir = &cell.dirs[0];
                fs::write(dir.join("memory.max"), l.memory_bytes.to_string())?;
                // Absent where the kernel has no swap accounting: then there is no swap to use.
                let _ = fs::write(dir.join("memory.swap.max"), "0");
                fs::write(
                    dir.join("cpu.max"),
                    format!("{} {CPU_PERIOD_US}", l.cpu_quota_us),
                )?;
                fs::write(dir.join("pids.max"), l.pids.to_string())?;
            }
            Kind::V1 {
                memory, cpu, pids, ..
            } => {
                let memory = memory.join(&cell.name);
                fs::write(
                    memory.join("memory.limit_in_bytes"),
                    l.memory_bytes.to_string(),
                )?;
                // Memory and swap together; absent without swap accounting.
                let _ = fs::write(
                    memory.join("memory.memsw.limit_in_bytes"),
                    l.memory_bytes.to_string(),
                );
                let cpu = cpu.join(&cell.name);
                fs::write(cpu.join("cpu.cfs_period_us"), CPU_PERIOD_US.to_string())?;
                fs::write(cpu.join("cpu.cfs_quota_us"), l.cpu_quota_us.to_string())?;
                fs::write(pids.join(&cell.name).join("pids.max"), l.pids.to_string())?;
            }
            Kind::Rlimits => {}
        }
        let procs = cell
            .dirs
            .iter()
            .map(|d| {
                fs::OpenOptions::new()
                    .write(true)
                    .open(d.join("cgroup.procs"))
            })
            .collect::<io::Result<Vec<_>>>()?;
        cell.procs = procs.into();
        Ok(cell)
    }
}

/// The unified hierarchy, at the root (v2 only) or at `unified` (hybrid), with the memory,
/// cpu and pids controllers given to the cells.
fn cgroup_v2(root: &Path) -> io::Result<PathBuf> {
    let mount = [root.to_path_buf(), root.join("unified")]
        .into_iter()
        .find(|m| m.join("cgroup.controllers").exists())
        .ok_or_else(|| other("not mounted"))?;
    let available = fs::read_to_string(mount.join("cgroup.controllers"))?;
    for c in ["memory", "cpu", "pids"] {
        if !available.split_whitespace().any(|a| a == c) {
            return Err(other(format!("no {c} controller")));
        }
    }
    let parent = mount.join(GROUP);
    let enable = |dir: &Path| fs::write(dir.join("cgroup.subtree_control"), "+memory +cpu +pids");
    enable(&mount)?;
    fs::create_dir_all(&parent)?;
    enable(&parent)?;
    sweep(&parent);
    Ok(parent)
}

/// The memory, cpu and pids hierarchies (cpuacct for the figures, when mounted).
fn cgroup_v1(root: &Path) -> io::Result<Kind> {
    // The root of a hierarchy lacks some of its controller's files (`pids.max`): they are
    // looked for in the group made under it.
    let group = |controller: &str, file: &str| -> io::Result<PathBuf> {
        let dir = root.join(controller);
        if !dir.join("cgroup.procs").exists() {
            return Err(other(format!("no {controller} hierarchy")));
        }
        let group = dir.join(GROUP);
        fs::create_dir_all(&group)?;
        if !group.join(file).exists() {
            return Err(other(format!("no {file}")));
        }
        sweep(&group);
        group.canonicalize()
    };
    Ok(Kind::V1 {
        memory: group("memory", "memory.limit_in_bytes")?,
        cpu: group("cpu", "cpu.cfs_quota_us")?,
        cpuacct: group("cpuacct", "cpuacct.usage").ok(),
        pids: group("pids", "pids.max")?,
    })
}

/// What a Chromium used, read from its cgroup (nothing under rlimits).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// The most memory its processes held at once.
    pub peak_bytes: Option<u64>,
    /// CPU time of all its processes.
    pub cpu_ns: Option<u64>,
    /// Processes the kernel killed for memory.
    pub oom_kills: Option<u64>,
    /// The most processes and threads it had at once.
    pub peak_pids: Option<u64>,
    /// Processes or threads it could not start, at its bound.
    pub pids_refused: Option<u64>,
}

/// The cgroup (or rlimits) of one Chromium (see the module's documentation).
pub struct Cell {
    dirs: Vec<PathBuf>,
    /// The cells' `cgroup.procs`, open for writing before the browser is forked.
    procs: Arc<[fs::File]>,
    kind: Kind,
    limits: Limits,
    name: String,
}

fn read_u64(path: &Path) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// `key value` of a flat-keyed cgroup file (`memory.events`, `cpu.stat`).
fn read_key(path: &Path, key: &str) -> Option<u64> {
    fs::read_to_string(path)
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
}

impl Cell {
    /// Makes `c` start inside this cell: its process joins the cgroup (or takes the rlimits)
    /// between fork and exec, before it can start anything else.
    #[allow(unsafe_code)]
    pub fn confine(&self, c: &mut tokio::process::Command) {
        let procs = self.procs.clone();
        let rlimits = (self.kind == Kind::Rlimits).then_some(self.limits);
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe calls may be made: it writes to files opened before the fork
        // (`0` is the writing process) and calls setrlimit; it neither allocates nor locks.
        unsafe {
            c.pre_exec(move || {
                for f in procs.iter() {
                    (&*f).write_all(b"0")?;
                }
                if let Some(l) = rlimits {
                    setrlimit(Resource::RLIMIT_DATA, l.memory_bytes, l.memory_bytes)?;
                    setrlimit(Resource::RLIMIT_CPU, l.cpu_secs, l.cpu_secs + 1)?;
                }
                Ok(())
            });
        }
    }

    /// What the browser has used so far.
    pub fn usage(&self) -> Usage {
        let at = |dir: &PathBuf, file: &str| dir.join(&self.name).join(file);
        match &self.kind {
            Kind::V2 { parent } => Usage {
                peak_bytes: read_u64(&at(parent, "memory.peak")),
                cpu_ns: read_key(&at(parent, "cpu.stat"), "usage_usec").map(|us| us * 1000),
                oom_kills: read_key(&at(parent, "memory.events"), "oom_kill"),
                peak_pids: read_u64(&at(parent, "pids.peak")),
                pids_refused: read_key(&at(parent, "pids.events"), "max"),
            },
            Kind::V1 {
                memory,
                cpuacct,
                pids,
                ..
            } => Usage {
                peak_bytes: read_u64(&at(memory, "memory.max_usage_in_bytes")),
                cpu_ns: cpuacct
                    .as_ref()
                    .and_then(|d| read_u64(&at(d, "cpuacct.usage"))),
                oom_kills: read_key(&at(memory, "memory.oom_control"), "oom_kill"),
                peak_pids: read_u64(&at(pids, "pids.peak")),
                pids_refused: read_key(&at(pids, "pids.events"), "max"),
            },
            Kind::Rlimits => Usage::default(),
        }
    }

    /// Kills what is in the cell; answers whether anything was.
    fn kill_all(&self) -> bool {
        // Every directory, not just up to the first with processes.
        self.dirs
            .iter()
            .map(|dir| kill_in(dir))
            .filter(|any| *any)
            .count()
            > 0
    }

    /// Kills whatever is left of the browser, removes the cgroup and answers what it used.
    pub async fn close(mut self) -> Usage {
        let usage = self.usage();
        for _ in 0..100 {
            if !self.kill_all() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        for dir in std::mem::take(&mut self.dirs) {
            if let Err(e) = fs::remove_dir(&dir) {
                tracing::warn!(dir = %dir.display(), error = %e, "a picture's cgroup stays");
            }
        }
        usage
    }
}

impl Drop for Cell {
    /// A cell not closed (its picture's task was dropped, the runtime is ending): kill what is
    /// in it, and remove it from a thread of its own once the processes are gone.
    fn drop(&mut self) {
        if self.dirs.is_empty() {
            return;
        }
        self.kill_all();
        let dirs = std::mem::take(&mut self.dirs);
        let _ = std::thread::Builder::new()
            .name("picture-cell".into())
            .spawn(move || remove_when_empty(&dirs));
    }
}

/// Kills the processes in the cgroup `dir`; answers whether there were any.
fn kill_in(dir: &Path) -> bool {
    let Ok(pids) = fs::read_to_string(dir.join("cgroup.procs")) else {
        return false;
    };
    let mut any = false;
    for pid in pids.lines().filter_map(|p| p.trim().parse::<i32>().ok()) {
        any = true;
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
    any
}

/// Kills what is in `dirs` and removes them, trying for a few seconds while processes exit.
fn remove_when_empty(dirs: &[PathBuf]) {
    for _ in 0..250 {
        let mut left = false;
        for dir in dirs.iter().filter(|d| d.exists()) {
            kill_in(dir);
            left |= fs::remove_dir(dir).is_err();
        }
        if !left {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Removes the cells that processes no longer running left under `parent` (killed before they
/// could clean up): a cell is named `{pid}-{n}` after the process that made it.
fn sweep(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    let stale: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.split_once('-')
                .and_then(|(pid, _)| pid.parse::<u32>().ok())
                .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists())
        })
        .collect();
    remove_when_empty(&stale);
}

type Job = Box<dyn FnOnce() + Send>;

/// A network namespace with only loopback: a thread of its own that moved into it runs what
/// must start there (the origin's listener, Chromium); sockets and processes stay in it after.
pub struct Netns {
    jobs: mpsc::Sender<Job>,
}

impl Netns {
    /// A fresh namespace (needs root: `CAP_SYS_ADMIN`).
    pub async fn new() -> io::Result<Netns> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (ready, entered) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("picture-netns".into())
            .spawn(move || {
                // Only this thread moves (a network namespace is a thread's); it serves jobs
                // until the Netns is dropped.
                let moved = unshare(CloneFlags::CLONE_NEWNET)
                    .map_err(io::Error::from)
                    .and_then(|()| loopback_up());
                let ok = moved.is_ok();
                let _ = ready.send(moved);
                if ok {
                    while let Ok(job) = inbox.recv() {
                        job();
                    }
                }
            })?;
        entered
            .await
            .map_err(|_| other("the namespace's thread ended"))??;
        Ok(Netns { jobs })
    }

    /// Runs `f` inside the namespace.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> io::Result<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move || {
                let _ = tx.send(f());
            }))
            .map_err(|_| other("the namespace's thread ended"))?;
        rx.await.map_err(|_| other("the namespace's thread ended"))
    }

    /// A listener on the namespace's loopback.
    pub async fn listen(&self) -> io::Result<tokio::net::TcpListener> {
        let std = self
            .run(|| std::net::TcpListener::bind("127.0.0.1:0"))
            .await??;
        std.set_nonblocking(true)?;
        tokio::net::TcpListener::from_std(std)
    }

    /// Starts `c` inside the namespace.
    pub async fn spawn(&self, mut c: tokio::process::Command) -> io::Result<tokio::process::Child> {
        let runtime = tokio::runtime::Handle::current();
        self.run(move || {
            let _entered = runtime.enter();
            c.spawn()
        })
        .await?
    }
}

/// Brings up the (new) namespace's loopback, which starts down.
#[allow(unsafe_code)]
fn loopback_up() -> io::Result<()> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0")?;
    let mut req = libc::ifreq {
        ifr_name: [0; libc::IFNAMSIZ],
        ifr_ifru: libc::__c_anonymous_ifr_ifru { ifru_flags: 0 },
    };
    for (to, from) in req.ifr_name.iter_mut().zip(b"lo") {
        *to = *from as libc::c_char;
    }
    req.ifr_ifru.ifru_flags = (libc::IFF_UP | libc::IFF_LOOPBACK | libc::IFF_RUNNING) as i16;
    // SAFETY: SIOCSIFFLAGS reads the `ifreq` passed, which outlives the call, on an open
    // socket; it changes only this thread's namespace's loopback.
    if unsafe { libc::ioctl(socket.as_raw_fd(), libc::SIOCSIFFLAGS, &req) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
