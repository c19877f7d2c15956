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
//! - **CPU:** [`Settings::render_cpu_ms`], measured by the worker's own CPU-time timer
//!   (`RLIMIT_CPU` a second beyond it as the backstop, see [`worker`]); the worker lives for
//!   one render, so the budget is that render's;
//! - **wall clock:** [`Settings::render_deadline_ms`] from the moment the worker starts (time
//!   spent waiting for a worker is bounded apart, below); the parent kills the worker at the
//!   deadline. A worker that ran out of wall-clock time without running out of CPU was starved
//!   by the machine, not by its template: that is [`SandboxError::Busy`], never a budget;
//! - **output:** [`MAX_OUTPUT_BYTES`], enforced by the renderer's writer in the worker, and
//!   again by the parent when it reads the answer;
//! - **fuel and recursion limit** as before, which stop a runaway loop early and by name;
//! - **a fair share of the workers:** [`Settings::render_workers`] workers at once per
//!   process, handed out by a fair queue per account ([`queue`]): an account holds at most
//!   [`Settings::render_workers_per_account`] of them, a publish goes first, and one account's
//!   backlog delays another's render by at most one render. A render waits for a worker at
//!   most [`Settings::render_queue_ms`] (a publish longer, [`PUBLISH_WAIT`]), then is
//!   [`SandboxError::Busy`]: the caller's 503, never cached, never blamed on the template.
//!
//! The worker is the running binary started as `{binary} __render-worker {memory} {cpu ms}`
//! (both `vitrine-edge` and `vitrine-control` answer to it before anything else, see
//! [`worker_main`]), with an empty environment (no secrets), no open files but its pipes, and
//! no core dumps. It reads one JSON [`Job`] on stdin and answers on stdout, line by line:
//! `S {i}` when block `i` starts (so a block that takes the worker down is named), `O {i} {len}`
//! followed by `len` bytes of HTML, `E {i} {json}` for a block's [`RenderError`], and last
//! `T {micros}`, the CPU time the render used. A job that asks for the whole document
//! ([`Sandbox::document`]: the edge's live pages) gets, once every block rendered, `D {len}`
//! and the document, then `B {len}` and `G {len}` with its brotli and gzip variants
//! ([`crate::compress`], quick effort) when they are worth sending: compression is part of
//! the render, paid once per render in the account's share of the workers and within its CPU
//! budget, never on a visitor's request.
//!
//! Two other kinds of job run in the same workers and queue, each under budgets of its own:
//! photos (`photo`, [`crate::photos`]) and share cards (`card`, [`crate::seo::card`]).

use std::{path::PathBuf, process::Stdio, time::Duration};

use serde::{Deserialize, Serialize};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    process::Command,
};

use crate::{
    Settings,
    account::Account,
    render::{Block, DocumentParts, Exceeded, MAX_OUTPUT_BYTES, RenderContext, RenderError},
};

mod card;
mod photo;
pub mod queue;
mod worker;

pub use card::{CARD_ARG, Card};
pub use photo::{PHOTO_ARG, PhotoFailure};
pub use queue::{FairQueue, Limits, Refused};
pub use worker::{worker_if_asked, worker_main, worker_only_main};

/// The first argument that turns a Vitrine binary into a render worker.
pub const WORKER_ARG: &str = "__render-worker";

/// How long a publish's render may wait for a worker: publishes go first, so this is only
/// reached when every worker is stuck on renders that run to their deadline.
pub const PUBLISH_WAIT: Duration = Duration::from_secs(60);

/// What a worker renders.
#[derive(Debug, Serialize, Deserialize)]
pub struct Job {
    pub blocks: Vec<Block>,
    pub ctx: RenderContext,
    /// Each block on its own (the editor's canvas: one block's error does not hide the others),
    /// else the page (stops at the first error).
    pub each: bool,
    /// The page's document around its blocks: when present (and not `each`), the worker
    /// answers the whole document and its compressed variants too.
    #[serde(default)]
    pub document: Option<DocumentParts>,
    /// The uploaded photos the document may show, by the `src` its `<img>`s name them with:
    /// the worker makes those `<img>`s `<picture>`s (`crate::photos::markup`) before it
    /// compresses the document.
    #[serde(default)]
    pub photos: Photos,
}

/// Photos by the `src` a page names them with (see [`Job::photos`]).
pub type Photos = std::collections::BTreeMap<String, crate::photos::markup::Shown>;

/// Which kind of work a render is, for the fair queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// A publish: before every other render, and waits longer ([`PUBLISH_WAIT`]).
    Publish,
    /// The editor's canvas, the owner's preview, thumbnails.
    Editor,
    /// A visitor's live page or collection page at the edge.
    Visitor,
}

/// Whose share of the workers a render uses, and in which lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    pub account: Account,
    pub lane: Lane,
}

impl Share {
    pub fn publish(account: Account) -> Share {
        Share {
            account,
            lane: Lane::Publish,
        }
    }

    pub fn editor(account: Account) -> Share {
        Share {
            account,
            lane: Lane::Editor,
        }
    }

    pub fn visitor(account: Account) -> Share {
        Share {
            account,
            lane: Lane::Visitor,
        }
    }
}

/// Why the sandbox gave no page.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SandboxError {
    /// The owner's template: an error, or over a budget the worker itself measured (its CPU,
    /// memory or output: [`RenderError::exceeded`]). The only failure a caller may cache.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// No worker came free within the wait's bound, the account's line was full, or the worker
    /// was starved of CPU past the wall-clock deadline: the platform was busy, not the
    /// template at fault. Answered 503 with `Retry-After`; never cached.
    #[error("the renderers are busy: {0}")]
    Busy(&'static str),
    /// The worker could not run (the platform's fault, not the template's).
    #[error("the render sandbox failed: {0}")]
    Broken(String),
}

/// Blocks rendered, and the CPU time the worker used for them.
pub struct Rendered {
    pub results: Vec<Result<String, RenderError>>,
    pub cpu: Duration,
    /// The document and its variants, when the job asked for it.
    pub document: Option<Document>,
}

/// A whole page as [`crate::render::document`] makes it, with its compressed variants (each
/// only when it saves at least a tenth).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub html: String,
    pub br: Option<Vec<u8>>,
    pub gzip: Option<Vec<u8>>,
}

/// Renders owners' templates in worker processes (see the module docs).
pub struct Sandbox {
    worker: Option<PathBuf>,
    queue: FairQueue,
    memory_bytes: u64,
    cpu_ms: u64,
    deadline: Duration,
    wait: Duration,
}

impl Sandbox {
    pub fn from_settings(settings: &Settings) -> Sandbox {
        let workers = match settings.render_workers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let per_account = match settings.render_workers_per_account {
            0 => (workers / 2).max(1),
            n => n,
        };
        Sandbox {
            worker: settings
                .render_worker
                .clone()
                .or_else(|| std::env::current_exe().ok()),
            queue: FairQueue::new(Limits {
                workers,
                per_account,
                waiting_per_account: WAITING_PER_ACCOUNT,
            }),
            memory_bytes: settings.render_memory_mb.max(16) * 1024 * 1024,
            cpu_ms: settings.render_cpu_ms.max(1),
            deadline: Duration::from_millis(settings.render_deadline_ms.max(100)),
            wait: Duration::from_millis(settings.render_queue_ms.max(1)),
        }
    }

    /// The fair queue's limits (workers, and each account's share).
    pub fn limits(&self) -> Limits {
        self.queue.limits()
    }

    /// Renders running and waiting now.
    pub fn load(&self) -> (usize, usize) {
        self.queue.load()
    }

    /// The page's blocks in order, joined by newlines (as [`crate::render::CompiledPage::render`]).
    pub async fn page(
        &self,
        share: Share,
        blocks: &[Block],
        ctx: &RenderContext,
    ) -> Result<String, SandboxError> {
        Ok(self.page_measured(share, blocks, ctx).await?.0)
    }

    /// [`Sandbox::page`], and the CPU time its worker used.
    pub async fn page_measured(
        &self,
        share: Share,
        blocks: &[Block],
        ctx: &RenderContext,
    ) -> Result<(String, Duration), SandboxError> {
        let rendered = self.run(share, blocks, ctx, false, None).await?;
        let mut out = String::new();
        for (i, html) in rendered.results.into_iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&html?);
        }
        Ok((out, rendered.cpu))
    }

    /// The whole document of a page (`parts` around its blocks, as [`crate::render::document`]
    /// makes it) with its brotli and gzip variants, made in the worker: the edge's answer to a
    /// live page, ready for every `Accept-Encoding`.
    pub async fn document(
        &self,
        share: Share,
        blocks: &[Block],
        ctx: &RenderContext,
        parts: &DocumentParts,
        photos: &Photos,
    ) -> Result<Document, SandboxError> {
        if blocks.is_empty() {
            // No worker for no template: the document alone, compressed here like a publish.
            let html = crate::render::document(parts, "");
            let v = crate::compress::variants(html.as_bytes(), crate::compress::Effort::Quick);
            return Ok(Document {
                html,
                br: v.br,
                gzip: v.gzip,
            });
        }
        let rendered = self
            .run(share, blocks, ctx, false, Some((parts, photos)))
            .await?;
        for result in rendered.results {
            result?;
        }
        rendered
            .document
            .ok_or_else(|| SandboxError::Broken("the render worker sent no document".into()))
    }

    /// Each block on its own (as [`crate::render::render_each`]); a block over a budget fails
    /// the whole call, naming it.
    pub async fn each(
        &self,
        share: Share,
        blocks: &[Block],
        ctx: &RenderContext,
    ) -> Result<Vec<Result<String, RenderError>>, SandboxError> {
        let results = self.run(share, blocks, ctx, true, None).await?.results;
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
        share: Share,
        blocks: &[Block],
        ctx: &RenderContext,
        each: bool,
        document: Option<(&DocumentParts, &Photos)>,
    ) -> Result<Rendered, SandboxError> {
        if blocks.is_empty() {
            return Ok(Rendered {
                results: Vec::new(),
                cpu: Duration::ZERO,
                document: None,
            });
        }
        let _slot = self.slot(share).await?;
        // The deadline starts now, with the worker: waiting was bounded above.
        let started = tokio::time::Instant::now();
        let job = serde_json::to_vec(&Job {
            blocks: blocks.to_vec(),
            ctx: ctx.clone(),
            each,
            document: document.map(|(parts, _)| parts.clone()),
            photos: document
                .map(|(_, photos)| photos.clone())
                .unwrap_or_default(),
        })
        .map_err(|e| SandboxError::Broken(e.to_string()))?;
        let mut child = self
            .spawn(self.memory_bytes, self.cpu_ms, &[])
            .map_err(SandboxError::Broken)?;
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
                // The worker's own CPU timer did not go off: the machine starved it.
                let _ = child.start_kill();
                let _ = child.wait().await;
                return Err(SandboxError::Busy(
                    "the render worker got too little CPU before its deadline",
                ));
            }
        };
        if answer.complete(each) {
            return Ok(Rendered {
                results: answer.results,
                cpu: answer.cpu,
                document: answer.document.finish(),
            });
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

/// Renders one account may have waiting for a worker; more are refused at once (503).
pub const WAITING_PER_ACCOUNT: usize = 32;

/// What a worker answered so far.
struct Answer {
    blocks: usize,
    results: Vec<Result<String, RenderError>>,
    /// The block started and not finished.
    running: Option<usize>,
    /// Bytes of HTML received, against [`MAX_OUTPUT_BYTES`].
    bytes: usize,
    /// The CPU time the worker said it used (its last line).
    cpu: Duration,
    /// The document and its variants, as they arrive.
    document: DocumentAnswer,
}

/// What a worker sent of the document: `D`, then `B` and `G` lines.
#[derive(Default)]
struct DocumentAnswer {
    html: Option<String>,
    br: Option<Vec<u8>>,
    gzip: Option<Vec<u8>>,
}

impl DocumentAnswer {
    fn finish(self) -> Option<Document> {
        Some(Document {
            html: self.html?,
            br: self.br,
            gzip: self.gzip,
        })
    }
}

impl Answer {
    fn new(blocks: usize) -> Answer {
        Answer {
            blocks,
            results: Vec::with_capacity(blocks),
            running: None,
            bytes: 0,
            cpu: Duration::ZERO,
            document: DocumentAnswer::default(),
        }
    }

    fn complete(&self, each: bool) -> bool {
        self.running.is_none()
            && (self.results.len() == self.blocks
                || (!each && self.results.last().is_some_and(Result::is_err)))
    }
}

impl Sandbox {
    /// A free worker for `share`: a publish goes first and waits longer ([`PUBLISH_WAIT`]).
    async fn slot(&self, share: Share) -> Result<queue::Slot, SandboxError> {
        let urgent = share.lane == Lane::Publish;
        let wait = if urgent { PUBLISH_WAIT } else { self.wait };
        self.queue
            .acquire(share.account, urgent, wait)
            .await
            .map_err(|refused| {
                SandboxError::Busy(match refused {
                    Refused::LineFull => "too many renders of this account are waiting",
                    Refused::Waited => "no render worker came free in time",
                })
            })
    }

    /// A worker process under `memory` bytes and `cpu_ms` of CPU, `job` naming its kind of
    /// job (none for a render), with an empty environment and its pipes.
    fn spawn(
        &self,
        memory: u64,
        cpu_ms: u64,
        job: &[&str],
    ) -> Result<tokio::process::Child, String> {
        let worker = self.worker.as_ref().ok_or("no render worker binary")?;
        Command::new(worker)
            .arg(WORKER_ARG)
            .arg(memory.to_string())
            .arg(cpu_ms.to_string())
            .args(job)
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
            .map_err(|e| format!("{}: {e}", worker.display()))
    }
}

/// How a worker that died mid-block went over a budget it measured itself: `SIGPROF` (its CPU
/// timer), `SIGXCPU` or `SIGKILL` (the CPU limit's backstop) for CPU, an abort or a fault for
/// memory (a failed allocation aborts).
fn reason(status: &std::process::ExitStatus) -> Option<Exceeded> {
    use std::os::unix::process::ExitStatusExt;
    match status.signal()? {
        libc::SIGPROF | libc::SIGXCPU | libc::SIGKILL => Some(Exceeded::Time),
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
            // The document is its blocks' output and the document's own parts (the project's
            // code among them), and its variants are smaller than it: each within twice the
            // output budget.
            "D" | "B" | "G" => {
                let len: usize = rest.parse().map_err(|_| "bad document length")?;
                if len > 2 * MAX_OUTPUT_BYTES {
                    return Err("the render worker's document is over the output budget".into());
                }
                let mut bytes = vec![0; len];
                out.read_exact(&mut bytes)
                    .await
                    .map_err(|e| e.to_string())?;
                let doc = &mut answer.document;
                match kind {
                    "D" => {
                        let html =
                            String::from_utf8(bytes).map_err(|_| "the document is not UTF-8")?;
                        doc.html = Some(html);
                    }
                    "B" => doc.br = Some(bytes),
                    _ => doc.gzip = Some(bytes),
                }
            }
            "T" => {
                let micros: u64 = rest.parse().map_err(|_| "bad CPU time line")?;
                answer.cpu = Duration::from_micros(micros);
            }
            _ => return Err("the render worker's answer is garbled".into()),
        }
    }
}
