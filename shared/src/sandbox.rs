//! The render sandbox: owners' block templates are rendered in a worker process of their own,
//! under the kernel's memory and CPU limits, the way Cloudflare Workers run each request in an
//! isolate with hard per-request memory and CPU limits. The control plane (editor canvas,
//! preview, publish) and the edge (live pages, collection pages) render through it.
//!
//! Why a process and not a thread: MiniJinja's fuel counts instructions, not bytes or seconds,
//! and one instruction can be unbounded in both. `a ~ a` doubles a string with no limit (seven
//! `{% set a = a ~ a %}` after `'x' * 100000000` make 12.8 GB); `{% set %}…{% endset %}`
//! blocks and macro calls capture output into strings the output writer never sees; and
//! `1 in [0] * 10**14` walks a lazy sequence for hours inside a single instruction. Nothing in
//! a process can stop such an instruction once it has started (a global allocator must not
//! unwind, a thread cannot be killed), which is also Jinja's maintainers' advice for untrusted
//! templates: set the limits in the operating system. So each render gets:
//!
//! - **memory:** `RLIMIT_DATA` of [`Settings::render_memory_mb`] on the worker: an allocation
//!   past it fails and the worker aborts, long before the machine notices;
//! - **CPU:** `RLIMIT_CPU` of [`Settings::render_cpu_secs`]: the worker lives for one render,
//!   so the limit is that render's; the kernel stops it with `SIGXCPU` (`SIGKILL` a second
//!   later);
//! - **wall clock:** [`Settings::render_deadline_ms`], waiting for a free worker included; the
//!   parent kills the worker at the deadline;
//! - **output:** [`MAX_OUTPUT_BYTES`], enforced by the renderer's writer in the worker, and
//!   again by the parent when it reads the answer;
//! - **fuel and recursion limit** as before, which stop a runaway loop early and by name;
//! - **concurrency:** [`Settings::render_workers`] workers at once per process; the rest wait
//!   (asynchronously: a visitor thread keeps serving while its renders run elsewhere).
//!
//! The worker is the running binary started as `{binary} __render-worker {memory} {cpu}` (both
//! `vitrine-edge` and `vitrine-control` answer to it before anything else, see
//! [`worker_main`]), with an empty environment (no secrets), no open files but its pipes, and
//! no core dumps. It reads one JSON [`Job`] on stdin and answers on stdout, line by line:
//! `S {i}` when block `i` starts (so a block that takes the worker down is named), `O {i} {len}`
//! followed by `len` bytes of HTML, and `E {i} {json}` for a block's [`RenderError`].

use std::{path::PathBuf, process::Stdio, time::Duration};

use serde::{Deserialize, Serialize};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    process::Command,
    sync::Semaphore,
};

use crate::{
    Settings,
    render::{Block, CompiledPage, Exceeded, MAX_OUTPUT_BYTES, RenderContext, RenderError},
};

/// The first argument that turns a Vitrine binary into a render worker.
pub const WORKER_ARG: &str = "__render-worker";

/// What a worker renders.
#[derive(Debug, Serialize, Deserialize)]
pub struct Job {
    pub blocks: Vec<Block>,
    pub ctx: RenderContext,
    /// Each block on its own (the editor's canvas: one block's error does not hide the others),
    /// else the page (stops at the first error).
    pub each: bool,
}

/// Why the sandbox gave no page.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SandboxError {
    /// The owner's template: an error, or over a budget ([`RenderError::exceeded`]).
    #[error(transparent)]
    Render(#[from] RenderError),
    /// Every worker stayed busy until the deadline.
    #[error("every render worker is busy")]
    Busy,
    /// The worker could not run (the platform's fault, not the template's).
    #[error("the render sandbox failed: {0}")]
    Broken(String),
}

/// Renders owners' templates in worker processes (see the module docs).
pub struct Sandbox {
    worker: Option<PathBuf>,
    permits: Semaphore,
    memory_bytes: u64,
    cpu_secs: u64,
    deadline: Duration,
}

impl Sandbox {
    pub fn from_settings(settings: &Settings) -> Sandbox {
        let workers = match settings.render_workers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        Sandbox {
            worker: settings
                .render_worker
                .clone()
                .or_else(|| std::env::current_exe().ok()),
            permits: Semaphore::new(workers),
            memory_bytes: settings.render_memory_mb.max(16) * 1024 * 1024,
            cpu_secs: settings.render_cpu_secs.max(1),
            deadline: Duration::from_millis(settings.render_deadline_ms.max(100)),
        }
    }

    /// The page's blocks in order, joined by newlines (as [`CompiledPage::render`]).
    pub async fn page(
        &self,
        blocks: &[Block],
        ctx: &RenderContext,
    ) -> Result<String, SandboxError> {
        let mut out = String::new();
        for (i, html) in self.run(blocks, ctx, false).await?.into_iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&html?);
        }
        Ok(out)
    }

    /// Each block on its own (as [`crate::render::render_each`]); a block over a budget fails
    /// the whole call, naming it.
    pub async fn each(
        &self,
        blocks: &[Block],
        ctx: &RenderContext,
    ) -> Result<Vec<Result<String, RenderError>>, SandboxError> {
        let results = self.run(blocks, ctx, true).await?;
        if let Some(Err(e)) = results
            .iter()
            .find(|r| matches!(r, Err(e) if e.exceeded.is_some()))
        {
            return Err(SandboxError::Render(e.clone()));
        }
        Ok(results)
    }

    async fn run(
        &self,
        blocks: &[Block],
        ctx: &RenderContext,
        each: bool,
    ) -> Result<Vec<Result<String, RenderError>>, SandboxError> {
        if blocks.is_empty() {
            return Ok(Vec::new());
        }
        let started = tokio::time::Instant::now();
        let _permit = tokio::time::timeout(self.deadline, self.permits.acquire())
            .await
            .map_err(|_| SandboxError::Busy)?
            .map_err(|_| SandboxError::Busy)?;
        let job = serde_json::to_vec(&Job {
            blocks: blocks.to_vec(),
            ctx: ctx.clone(),
            each,
        })
        .map_err(|e| SandboxError::Broken(e.to_string()))?;
        let worker = self
            .worker
            .as_ref()
            .ok_or_else(|| SandboxError::Broken("no render worker binary".into()))?;
        let mut child = Command::new(worker)
            .arg(WORKER_ARG)
            .arg(self.memory_bytes.to_string())
            .arg(self.cpu_secs.to_string())
            .env_clear()
            // The edge's allocator (mimalloc) reserves 1 GiB of address space at its first
            // allocation and then commits from it without mapping anything, where the
            // address-space limit cannot see it; without the reserve, each of its segments is
            // a mapping the limit counts. Other allocators ignore the variable.
            .env("MIMALLOC_ARENA_RESERVE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| SandboxError::Broken(format!("{}: {e}", worker.display())))?;
        let mut answer = Answer::new(blocks.len());
        let left = self.deadline.saturating_sub(started.elapsed());
        let finished = tokio::time::timeout(left, exchange(&mut child, &job, &mut answer)).await;
        let label = |i: usize| blocks.get(i).map(Block::label).unwrap_or_default();
        let status = match finished {
            Ok(Ok(status)) => status,
            Ok(Err(e)) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                return match answer.running {
                    Some(i) if answer.bytes > MAX_OUTPUT_BYTES => {
                        Err(RenderError::exceeded(label(i), Exceeded::Output).into())
                    }
                    _ => Err(SandboxError::Broken(e)),
                };
            }
            Err(_) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                let i = answer.running.unwrap_or(answer.results.len());
                return Err(RenderError::exceeded(label(i), Exceeded::Time).into());
            }
        };
        if answer.complete(each) {
            return Ok(answer.results);
        }
        let Some(i) = answer.running else {
            return Err(SandboxError::Broken(format!(
                "the render worker stopped ({status}) before rendering"
            )));
        };
        match reason(&status) {
            Some(reason) => Err(RenderError::exceeded(label(i), reason).into()),
            None => Err(SandboxError::Broken(format!(
                "the render worker stopped ({status}) in block {:?}",
                label(i)
            ))),
        }
    }
}

/// What a worker answered so far.
struct Answer {
    blocks: usize,
    results: Vec<Result<String, RenderError>>,
    /// The block started and not finished.
    running: Option<usize>,
    /// Bytes of HTML received, against [`MAX_OUTPUT_BYTES`].
    bytes: usize,
}

impl Answer {
    fn new(blocks: usize) -> Answer {
        Answer {
            blocks,
            results: Vec::with_capacity(blocks),
            running: None,
            bytes: 0,
        }
    }

    fn complete(&self, each: bool) -> bool {
        self.running.is_none()
            && (self.results.len() == self.blocks
                || (!each && self.results.last().is_some_and(Result::is_err)))
    }
}

/// How a worker that died mid-block went over its budget: `SIGXCPU` (or `SIGKILL`, the hard
/// limit) for CPU, an abort or a fault for memory (a failed allocation aborts).
fn reason(status: &std::process::ExitStatus) -> Option<Exceeded> {
    use std::os::unix::process::ExitStatusExt;
    match status.signal()? {
        libc::SIGXCPU | libc::SIGKILL => Some(Exceeded::Time),
        libc::SIGABRT | libc::SIGSEGV | libc::SIGBUS => Some(Exceeded::Memory),
        _ => None,
    }
}

/// Sends the job and reads the answer until the worker closes its output.
async fn exchange(
    child: &mut tokio::process::Child,
    job: &[u8],
    answer: &mut Answer,
) -> Result<std::process::ExitStatus, String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    // The worker reads the whole job before it answers; a worker that dies early closes its
    // end, and its exit status says why.
    let write = async move {
        let _ = stdin.write_all(job).await;
        drop(stdin);
    };
    let read = read_answer(BufReader::new(stdout), answer);
    let (_, read) = tokio::join!(write, read);
    read?;
    child.wait().await.map_err(|e| e.to_string())
}

async fn read_answer(
    mut out: BufReader<tokio::process::ChildStdout>,
    answer: &mut Answer,
) -> Result<(), String> {
    let mut line = Vec::new();
    loop {
        line.clear();
        // A line is a block index or an error message: 64 KiB is plenty.
        let n = (&mut out)
            .take(64 * 1024)
            .read_until(b'\n', &mut line)
            .await
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(());
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| "the render worker's answer is not text")?
            .trim_end();
        let (kind, rest) = text.split_once(' ').unwrap_or((text, ""));
        match kind {
            "S" => answer.running = Some(rest.parse().map_err(|_| "bad start line")?),
            "O" => {
                let (_, len) = rest.split_once(' ').ok_or("bad output line")?;
                let len: usize = len.parse().map_err(|_| "bad output length")?;
                answer.bytes += len;
                if answer.bytes > MAX_OUTPUT_BYTES {
                    return Err("the render worker wrote more than the output budget".into());
                }
                let mut html = vec![0; len];
                out.read_exact(&mut html).await.map_err(|e| e.to_string())?;
                let html = String::from_utf8(html).map_err(|_| "the render is not UTF-8")?;
                answer.results.push(Ok(html));
                answer.running = None;
            }
            "E" => {
                let (_, json) = rest.split_once(' ').ok_or("bad error line")?;
                let e: RenderError = serde_json::from_str(json).map_err(|e| e.to_string())?;
                answer.results.push(Err(e));
                answer.running = None;
            }
            _ => return Err("the render worker's answer is garbled".into()),
        }
    }
}

/// `main` of a binary that is only a render worker (for test and bench harnesses, whose own
/// binaries cannot be started as workers): runs [`worker_main`], or exits with a usage line
/// when the first argument is not [`WORKER_ARG`].
pub fn worker_only_main(name: &str) -> ! {
    worker_if_asked();
    eprintln!("usage: {name} {WORKER_ARG} {{memory bytes}} {{cpu secs}}");
    std::process::exit(2);
}

/// Makes this process a render worker ([`worker_main`], which never returns) when its first
/// argument is [`WORKER_ARG`]. Both binaries call it first thing in `main`: no runtime, no
/// settings, no threads before it.
pub fn worker_if_asked() {
    if std::env::args_os().nth(1).as_deref() == Some(WORKER_ARG.as_ref()) {
        worker_main();
    }
}

/// The worker's side: applies the limits, reads the job, renders, answers, exits.
pub fn worker_main() -> ! {
    let args: Vec<String> = std::env::args().skip(2).collect();
    let code = match run_worker(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("render worker: {e}");
            2
        }
    };
    std::process::exit(code)
}

// setrlimit has no safe wrapper in std; this is the one call (the workspace denies unsafe code).
#[allow(unsafe_code)]
fn limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
    let l = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: setrlimit reads the struct we pass and changes only this process's limits.
    if unsafe { libc::setrlimit(resource, &l) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// The process's virtual size now (`VmSize`), which the address-space limit starts from.
fn mapped_bytes() -> std::io::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .ok_or_else(|| std::io::Error::other("no VmSize in /proc/self/status"))
}

/// Writes one line of the answer, flushed at once: a block that takes the worker down must
/// already be named.
fn emit(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

fn emit_result(i: usize, html: &Result<String, RenderError>) -> std::io::Result<()> {
    match html {
        Ok(html) => {
            let mut line = format!("O {i} {}\n", html.len()).into_bytes();
            line.extend_from_slice(html.as_bytes());
            emit(&line)
        }
        Err(e) => {
            let json = serde_json::to_string(e).map_err(std::io::Error::other)?;
            emit(format!("E {i} {json}\n").as_bytes())
        }
    }
}

fn run_worker(args: &[String]) -> std::io::Result<()> {
    use std::io::Read;
    let number = |i: usize| -> std::io::Result<u64> {
        args.get(i).and_then(|a| a.parse().ok()).ok_or_else(|| {
            std::io::Error::other("usage: __render-worker {memory bytes} {cpu secs}")
        })
    };
    let (memory, cpu) = (number(0)?, number(1)?);
    // Before the job is read: nothing the template does runs without them. The heap limit
    // (RLIMIT_DATA) is not enough alone: an allocator that maps its memory otherwise (the
    // edge's mimalloc) is held by the address-space limit, counted from what the process
    // maps before the job.
    limit(libc::RLIMIT_CORE, 0, 0)?;
    limit(libc::RLIMIT_DATA, memory, memory)?;
    let mapped = mapped_bytes()?;
    limit(libc::RLIMIT_AS, mapped + memory, mapped + memory)?;
    limit(libc::RLIMIT_CPU, cpu, cpu + 1)?;
    limit(libc::RLIMIT_NOFILE, 16, 16)?;
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let job: Job = serde_json::from_slice(&input).map_err(std::io::Error::other)?;
    drop(input);
    let mut left = MAX_OUTPUT_BYTES;
    let mut io = Ok(());
    let mut start = |i: usize| {
        if io.is_ok() {
            io = emit(format!("S {i}\n").as_bytes());
        }
    };
    // Blocks compile in here too: compiling evaluates constant expressions.
    if job.each {
        for (i, b) in job.blocks.iter().enumerate() {
            start(i);
            let html = CompiledPage::compile(std::slice::from_ref(b)).and_then(|page| {
                let mut html = Ok(String::new());
                // The start line is out already; only the result matters here.
                page.render_blocks(
                    &job.ctx,
                    &mut left,
                    |_| {},
                    |_, h| {
                        html = h;
                        Ok(())
                    },
                )?;
                html
            });
            emit_result(i, &html)?;
        }
        return Ok(());
    }
    let mut compiling = 0;
    let page = CompiledPage::compile_with(&job.blocks, |i| {
        compiling = i;
        start(i)
    });
    let page = match page {
        Ok(page) => page,
        Err(e) => return emit_result(compiling, &Err(e)),
    };
    let _ = page.render_blocks(&job.ctx, &mut left, &mut start, |i, html| {
        let written = emit_result(i, &html);
        html.map(drop)?;
        written.map_err(|e| RenderError {
            block: String::new(),
            message: e.to_string(),
            exceeded: None,
        })
    });
    io
}
