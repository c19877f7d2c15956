//! The photo job (issue 44, [`crate::photos`]): a worker process of the same kind as a render's,
//! started as `{binary} __render-worker {memory} {cpu ms} photo {ext} {formats}` (the
//! [`Formats`] it makes: `quick`, `avif` or `all`), under the photo budgets
//! ([`WORKER_MEMORY_BYTES`], [`WORKER_CPU_MS`], [`WORKER_DEADLINE`]) instead of a render's, and
//! given out by the same fair queue in the uploader's account: photos and renders share the
//! workers, and one account's photos can hold at most its share of them.
//!
//! It reads the photo's bytes on stdin and answers, line by line: `O {width} {height} {len}`
//! and the upright original without metadata, `P {len}` and the placeholder's data URI,
//! `V {ext} {width} {height} {len}` and each variant, `T {micros}` the CPU time it used; or
//! `X pixels {width} {height}` / `X unreadable {message}` for a photo it refuses. An `avif`
//! job is given a photo already made upright (an upload's stored original) and answers only
//! its AVIF variants and `T`.

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use super::{Refused, Sandbox, reason};
use crate::{
    account::Account,
    photos::{
        Encoded, Formats, Made, PhotoError, PhotoFormat, WORKER_CPU_MS, WORKER_DEADLINE,
        WORKER_MEMORY_BYTES, WORKER_WAIT, codec,
    },
    render::Exceeded,
};

/// The job's argument after the limits.
pub const PHOTO_ARG: &str = "photo";

/// The most bytes a worker may answer for one photo (the original and every variant).
const MAX_ANSWER_BYTES: usize = 512 * 1024 * 1024;

/// Why no photo was made.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PhotoFailure {
    /// The file: too many pixels, or not an image the decoders read.
    #[error(transparent)]
    Refused(#[from] PhotoError),
    /// The worker went over its memory or CPU budget: a photo too costly to make.
    #[error("the photo went over its {} budget", .0.as_str())]
    Exceeded(Exceeded),
    /// No worker came free in time, or the worker was starved of CPU: try again later.
    #[error("the photo workers are busy: {0}")]
    Busy(&'static str),
    /// The worker could not run (the platform's fault).
    #[error("the photo worker failed: {0}")]
    Broken(String),
}

impl Sandbox {
    /// Makes `bytes` (a `jpg`, `png` or `webp` file, by `ext`) into its photo in a worker, in
    /// `account`'s share of the workers: the original, the placeholder and the variants of
    /// `formats` ([`Formats::Quick`] or [`Formats::All`]).
    pub async fn photo(
        &self,
        account: Account,
        bytes: &[u8],
        ext: &str,
        formats: Formats,
    ) -> Result<Made, PhotoFailure> {
        let (answer, status) = self.photo_job(account, bytes, ext, formats).await?;
        match (answer.original, answer.cpu) {
            (Some((original, width, height)), Some(cpu)) if status.success() => Ok(Made {
                original,
                width,
                height,
                placeholder: answer.placeholder.unwrap_or_default(),
                variants: answer.variants,
                cpu,
            }),
            _ => Err(failed(&status)),
        }
    }

    /// The AVIF variants of `bytes`, a photo already upright (an upload's stored original, of
    /// kind `ext`), made in a worker in `account`'s share; with the CPU time they took.
    pub async fn photo_avif(
        &self,
        account: Account,
        bytes: &[u8],
        ext: &str,
    ) -> Result<(Vec<Encoded>, Duration), PhotoFailure> {
        let (answer, status) = self.photo_job(account, bytes, ext, Formats::Avif).await?;
        match answer.cpu {
            Some(cpu) if status.success() => Ok((answer.variants, cpu)),
            _ => Err(failed(&status)),
        }
    }

    /// Runs one photo job to its end: what the worker answered and how it ended, or why the
    /// job could not run or the photo was refused.
    async fn photo_job(
        &self,
        account: Account,
        bytes: &[u8],
        ext: &str,
        formats: Formats,
    ) -> Result<(Answer, std::process::ExitStatus), PhotoFailure> {
        let _slot = self
            .queue
            .acquire(account, false, WORKER_WAIT)
            .await
            .map_err(|refused| {
                PhotoFailure::Busy(match refused {
                    Refused::LineFull => "too many jobs of this account are waiting",
                    Refused::Waited => "no worker came free in time",
                })
            })?;
        let mut child = self
            .spawn(
                WORKER_MEMORY_BYTES,
                WORKER_CPU_MS,
                &[PHOTO_ARG, ext, formats.arg()],
            )
            .map_err(PhotoFailure::Broken)?;
        let mut answer = Answer::default();
        let finished =
            tokio::time::timeout(WORKER_DEADLINE, exchange(&mut child, bytes, &mut answer)).await;
        let status = match finished {
            Ok(Ok(status)) => status,
            Ok(Err(e)) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                return Err(PhotoFailure::Broken(e));
            }
            Err(_) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                return Err(PhotoFailure::Busy(
                    "the photo worker got too little CPU before its deadline",
                ));
            }
        };
        if let Some(refused) = answer.refused.take() {
            return Err(PhotoFailure::Refused(refused));
        }
        Ok((answer, status))
    }
}

/// Why a worker that ended with `status` answered no photo.
fn failed(status: &std::process::ExitStatus) -> PhotoFailure {
    match reason(status) {
        Some(exceeded) => PhotoFailure::Exceeded(exceeded),
        None => PhotoFailure::Broken(format!("the photo worker stopped ({status})")),
    }
}

#[derive(Default)]
struct Answer {
    original: Option<(Vec<u8>, u32, u32)>,
    placeholder: Option<String>,
    variants: Vec<Encoded>,
    refused: Option<PhotoError>,
    cpu: Option<Duration>,
    bytes: usize,
}

async fn exchange(
    child: &mut tokio::process::Child,
    input: &[u8],
    answer: &mut Answer,
) -> Result<std::process::ExitStatus, String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let write = async move {
        let _ = stdin.write_all(input).await;
        drop(stdin);
    };
    let (_, read) = tokio::join!(write, read_answer(BufReader::new(stdout), answer));
    read?;
    child.wait().await.map_err(|e| e.to_string())
}

fn number<T: std::str::FromStr>(part: Option<&str>) -> Result<T, String> {
    part.and_then(|p| p.parse().ok())
        .ok_or_else(|| "the photo worker's answer is garbled".to_string())
}

async fn read_answer(
    mut out: BufReader<tokio::process::ChildStdout>,
    answer: &mut Answer,
) -> Result<(), String> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut out)
            .take(64 * 1024)
            .read_until(b'\n', &mut line)
            .await
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let mut parts = text.split(' ');
        let kind = parts.next().unwrap_or("");
        match kind {
            "O" => {
                let (w, h, len) = (
                    number(parts.next())?,
                    number(parts.next())?,
                    number(parts.next())?,
                );
                answer.original = Some((read_body(&mut out, &mut answer.bytes, len).await?, w, h));
            }
            "P" => {
                let bytes = read_body(&mut out, &mut answer.bytes, number(parts.next())?).await?;
                answer.placeholder = Some(String::from_utf8_lossy(&bytes).into_owned());
            }
            "V" => {
                let format = parts
                    .next()
                    .and_then(PhotoFormat::parse)
                    .ok_or("the photo worker named no format")?;
                let (width, height, len) = (
                    number(parts.next())?,
                    number(parts.next())?,
                    number(parts.next())?,
                );
                let bytes = read_body(&mut out, &mut answer.bytes, len).await?;
                answer.variants.push(Encoded {
                    format,
                    width,
                    height,
                    bytes,
                });
            }
            "X" => {
                answer.refused = Some(match parts.next() {
                    Some("pixels") => PhotoError::TooManyPixels {
                        width: number(parts.next())?,
                        height: number(parts.next())?,
                    },
                    _ => PhotoError::Unreadable(parts.collect::<Vec<_>>().join(" ")),
                });
            }
            "T" => answer.cpu = Some(Duration::from_micros(number(parts.next())?)),
            _ => return Err("the photo worker's answer is garbled".into()),
        }
    }
}

/// `len` bytes of the answer, counted against [`MAX_ANSWER_BYTES`].
async fn read_body(
    out: &mut BufReader<tokio::process::ChildStdout>,
    total: &mut usize,
    len: usize,
) -> Result<Vec<u8>, String> {
    *total = total.saturating_add(len);
    if *total > MAX_ANSWER_BYTES {
        return Err("the photo worker answered more than its budget".into());
    }
    let mut bytes = vec![0; len];
    out.read_exact(&mut bytes)
        .await
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// The worker's side: reads the photo on stdin, makes it, answers (see the module docs).
/// `emit` writes one part of the answer, flushed; `spent` is the CPU time used so far (µs).
pub(super) fn work(
    ext: &str,
    formats: Formats,
    mut emit: impl FnMut(&[u8]) -> std::io::Result<()>,
    spent: impl Fn() -> u64,
) -> std::io::Result<()> {
    use std::io::Read;
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let mut part = |head: String, bytes: &[u8]| {
        let mut line = head.into_bytes();
        line.push(b'\n');
        line.extend_from_slice(bytes);
        emit(&line)
    };
    let made = (|| -> Result<(), PhotoError> {
        let photo = codec::decode(&input, ext)?;
        drop(input);
        let io = |e: std::io::Error| PhotoError::Unreadable(e.to_string());
        if formats.quick() {
            let original = codec::original(&photo, ext)?;
            part(
                format!("O {} {} {}", photo.width, photo.height, original.len()),
                &original,
            )
            .map_err(io)?;
            drop(original);
            let placeholder = codec::placeholder(&photo)?;
            part(format!("P {}", placeholder.len()), placeholder.as_bytes()).map_err(io)?;
        }
        for v in codec::variants(&photo, formats)? {
            part(
                format!(
                    "V {} {} {} {}",
                    v.format.ext(),
                    v.width,
                    v.height,
                    v.bytes.len()
                ),
                &v.bytes,
            )
            .map_err(io)?;
        }
        Ok(())
    })();
    match made {
        Ok(()) => {}
        Err(PhotoError::TooManyPixels { width, height }) => {
            part(format!("X pixels {width} {height}"), b"")?;
        }
        Err(PhotoError::Unreadable(message)) => {
            let message: String = message
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .take(500)
                .collect();
            part(format!("X unreadable {message}"), b"")?;
        }
    }
    part(format!("T {}", spent()), b"")
}
