//! The worker's side of the sandbox: the process that applies its limits, reads one job,
//! renders it, answers and exits (see the parent module for the protocol).
//!
//! **CPU to the millisecond.** `RLIMIT_CPU` counts whole seconds, and a second is a hundred
//! times what the seeded templates need (`docs/security.md`, "Fair shares"). The budget
//! (`RENDER_CPU_MS`) is a CPU-time interval timer (`ITIMER_PROF`: user and system time of the
//! process), whose `SIGPROF` ends the worker at the budget; `RLIMIT_CPU` stays as the
//! backstop a second beyond it. Either signal is a CPU budget the worker itself measured, so
//! the parent may blame the template ([`super::reason`]).

use crate::{
    compress::{Effort, variants},
    render::{CompiledPage, MAX_OUTPUT_BYTES, RenderError, document},
};

use super::{Job, WORKER_ARG};

/// `main` of a binary that is only a render worker (for test and bench harnesses, whose own
/// binaries cannot be started as workers): runs [`worker_main`], or exits with a usage line
/// when the first argument is not [`WORKER_ARG`].
pub fn worker_only_main(name: &str) -> ! {
    worker_if_asked();
    eprintln!("usage: {name} {WORKER_ARG} {{memory bytes}} {{cpu ms}}");
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

// setrlimit, setitimer and getrusage have no safe wrapper in std; these are the only calls
// (the workspace denies unsafe code elsewhere).
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

/// Ends the process with `SIGPROF` once it has used `ms` of CPU (user and system) from now.
#[allow(unsafe_code)]
fn cpu_timer(ms: u64) -> std::io::Result<()> {
    let at = libc::timeval {
        tv_sec: libc::time_t::try_from(ms / 1000).unwrap_or(libc::time_t::MAX),
        tv_usec: libc::suseconds_t::try_from((ms % 1000) * 1000).unwrap_or(0),
    };
    let timer = libc::itimerval {
        it_interval: libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        },
        it_value: at,
    };
    // SAFETY: setitimer reads the struct we pass; a null old value is allowed. SIGPROF keeps
    // its default action (terminate), which is the point.
    if unsafe { libc::setitimer(libc::ITIMER_PROF, &timer, std::ptr::null_mut()) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// CPU time (user and system) this process has used, in microseconds.
#[allow(unsafe_code)]
fn cpu_used_micros() -> u64 {
    // SAFETY: an all-zero rusage is a valid value of the plain C struct getrusage fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    let micros = |t: libc::timeval| {
        u64::try_from(t.tv_sec).unwrap_or(0) * 1_000_000 + u64::try_from(t.tv_usec).unwrap_or(0)
    };
    micros(usage.ru_utime) + micros(usage.ru_stime)
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
        args.get(i)
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| std::io::Error::other("usage: __render-worker {memory bytes} {cpu ms}"))
    };
    let (memory, cpu_ms) = (number(0)?, number(1)?.max(1));
    // Before the job is read: nothing the template does runs without them. The heap limit
    // (RLIMIT_DATA) is not enough alone: an allocator that maps its memory otherwise (the
    // edge's mimalloc) is held by the address-space limit, counted from what the process
    // maps before the job.
    limit(libc::RLIMIT_CORE, 0, 0)?;
    limit(libc::RLIMIT_DATA, memory, memory)?;
    let mapped = mapped_bytes()?;
    limit(libc::RLIMIT_AS, mapped + memory, mapped + memory)?;
    let backstop = cpu_ms.div_ceil(1000) + 1;
    limit(libc::RLIMIT_CPU, backstop, backstop + 1)?;
    limit(libc::RLIMIT_NOFILE, 16, 16)?;
    // The timer counts from here: what the process used to start is not the template's.
    let before = cpu_used_micros();
    cpu_timer(cpu_ms)?;
    let spent = || cpu_used_micros().saturating_sub(before);
    if args.get(2).map(String::as_str) == Some(super::photo::PHOTO_ARG) {
        let ext = args.get(3).map_or("", String::as_str);
        let formats = args
            .get(4)
            .and_then(|f| crate::photos::Formats::parse(f))
            .unwrap_or(crate::photos::Formats::All);
        return super::photo::work(ext, formats, emit, spent);
    }
    if args.get(2).map(String::as_str) == Some(super::card::CARD_ARG) {
        return super::card::work(emit, spent);
    }
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let job: Job = serde_json::from_slice(&input).map_err(std::io::Error::other)?;
    drop(input);
    render(&job, |len| compress_within(spent(), len, cpu_ms))?;
    // The last line: what the render cost, for `/metrics` and the budget's measurements.
    emit(format!("T {}\n", spent()).as_bytes())
}

/// Whether a document of `len` bytes is compressed, `spent` µs of CPU into a budget of
/// `cpu_ms`. Compression goes by the bytes at well over 10 per microsecond (brotli 6 and gzip
/// 6 together, release build); a document that could take the render past half its budget is
/// sent without variants (and served whole), so compression never turns a page that rendered
/// into one over its budget.
fn compress_within(spent: u64, len: usize, cpu_ms: u64) -> bool {
    spent.saturating_add(len as u64 / 10) <= cpu_ms.saturating_mul(1000) / 2
}

/// Writes one part of the document's answer: `{kind} {len}` and the bytes.
fn emit_part(kind: char, bytes: &[u8]) -> std::io::Result<()> {
    let mut line = format!("{kind} {}\n", bytes.len()).into_bytes();
    line.extend_from_slice(bytes);
    emit(&line)
}

/// The whole document around the blocks' output and, when `compress` allows it for its
/// length, its variants.
fn emit_document(
    parts: &crate::render::DocumentParts,
    blocks: &[String],
    photos: &super::Photos,
    compress: impl Fn(usize) -> bool,
) -> std::io::Result<()> {
    let mut html = document(parts, &blocks.join("\n"));
    if !photos.is_empty() {
        html = crate::photos::markup::pictures(&html, |src| photos.get(src).cloned());
    }
    emit_part('D', html.as_bytes())?;
    if compress(html.len()) {
        let v = variants(html.as_bytes(), Effort::Quick);
        if let Some(br) = v.br {
            emit_part('B', &br)?;
        }
        if let Some(gzip) = v.gzip {
            emit_part('G', &gzip)?;
        }
    }
    Ok(())
}

fn render(job: &Job, compress: impl Fn(usize) -> bool) -> std::io::Result<()> {
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
    let mut done = Vec::with_capacity(job.blocks.len());
    let rendered = page.render_blocks(&job.ctx, &mut left, &mut start, |i, html| {
        let written = emit_result(i, &html);
        done.push(html?);
        written.map_err(|e| RenderError {
            block: String::new(),
            message: e.to_string(),
            exceeded: None,
        })
    });
    io?;
    match (&job.document, rendered) {
        (Some(parts), Ok(_)) if done.len() == job.blocks.len() => {
            emit_document(parts, &done, &job.photos, compress)
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::compress_within;

    #[test]
    fn compression_is_left_out_when_it_could_take_the_render_past_half_its_budget() {
        // The templates' pages: 20 KB, a few ms in, under the default 100 ms budget.
        assert!(compress_within(3_000, 21_458, 100));
        // A page of the output budget's 5 MiB is sent whole, as is any page late in its budget.
        assert!(!compress_within(3_000, 5 * 1024 * 1024, 100));
        assert!(!compress_within(49_000, 21_458, 100));
        assert!(compress_within(0, 400_000, 100));
    }
}
