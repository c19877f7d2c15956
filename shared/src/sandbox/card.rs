//! The card job ([`crate::seo::card`]): a worker process of the same kind as a render's,
//! started as `{binary} __render-worker {memory} {cpu ms} card`, under the card budgets
//! ([`WORKER_MEMORY_BYTES`], [`WORKER_CPU_MS`], [`WORKER_DEADLINE`]) and given out by the same
//! fair queue as renders and photos, in the site's account: a site's cards hold at most its
//! account's share of the workers, and a publish's cards go first as its renders do.
//!
//! It reads one JSON [`CardJob`] on stdin and answers `C {len}` and the PNG, or
//! `X {message}`, then `T {micros}`, the CPU time it used.

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use super::{Sandbox, SandboxError, Share, reason};
use crate::seo::card::{
    CardJob, MAX_IMAGE_BYTES, WORKER_CPU_MS, WORKER_DEADLINE, WORKER_MEMORY_BYTES, render,
};

/// The job's argument after the limits.
pub const CARD_ARG: &str = "card";

/// The most bytes of a card's PNG the parent reads.
const MAX_CARD_BYTES: usize = 8 * 1024 * 1024;

/// A card as the worker drew it.
#[derive(Debug, Clone)]
pub struct Card {
    pub png: Vec<u8>,
    /// The CPU time the worker used.
    pub cpu: Duration,
}

impl Sandbox {
    /// Draws the card `job` in a worker, in `share` (a publish's waits longer and goes first).
    /// An image over [`MAX_IMAGE_BYTES`] is left off the card rather than sent.
    pub async fn card(&self, share: Share, mut job: CardJob) -> Result<Card, SandboxError> {
        for image in [&mut job.logo, &mut job.photo] {
            if image
                .as_ref()
                .is_some_and(|i| i.bytes.len() > MAX_IMAGE_BYTES)
            {
                *image = None;
            }
        }
        let input = serde_json::to_vec(&job).map_err(|e| SandboxError::Broken(e.to_string()))?;
        let _slot = self.slot(share).await?;
        let mut child = self
            .spawn(WORKER_MEMORY_BYTES, WORKER_CPU_MS, &[CARD_ARG])
            .map_err(SandboxError::Broken)?;
        let finished = tokio::time::timeout(WORKER_DEADLINE, exchange(&mut child, &input)).await;
        let (status, answer) = match finished {
            Ok(Ok(done)) => done,
            Ok(Err(e)) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                return Err(SandboxError::Broken(e));
            }
            Err(_) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                return Err(SandboxError::Busy(
                    "the card worker got too little CPU before its deadline",
                ));
            }
        };
        match answer {
            (Some(png), Some(cpu), None) if status.success() => Ok(Card { png, cpu }),
            (_, _, Some(message)) => Err(SandboxError::Broken(message)),
            _ => Err(SandboxError::Broken(match reason(&status) {
                Some(exceeded) => format!("the card went over its {} budget", exceeded.as_str()),
                None => format!("the card worker stopped ({status})"),
            })),
        }
    }
}

type Answer = (Option<Vec<u8>>, Option<Duration>, Option<String>);

async fn exchange(
    child: &mut tokio::process::Child,
    input: &[u8],
) -> Result<(std::process::ExitStatus, Answer), String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let write = async move {
        let _ = stdin.write_all(input).await;
        drop(stdin);
    };
    let (_, read) = tokio::join!(write, read_answer(BufReader::new(stdout)));
    let answer = read?;
    Ok((child.wait().await.map_err(|e| e.to_string())?, answer))
}

async fn read_answer(mut out: BufReader<tokio::process::ChildStdout>) -> Result<Answer, String> {
    let garbled = || "the card worker's answer is garbled".to_string();
    let mut answer: Answer = (None, None, None);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut out)
            .take(4 * 1024)
            .read_until(b'\n', &mut line)
            .await
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(answer);
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let (kind, rest) = text.split_once(' ').unwrap_or((&text, ""));
        match kind {
            "C" => {
                let len: usize = rest.parse().map_err(|_| garbled())?;
                if len > MAX_CARD_BYTES {
                    return Err("the card worker answered more than its budget".into());
                }
                let mut png = vec![0; len];
                out.read_exact(&mut png).await.map_err(|e| e.to_string())?;
                answer.0 = Some(png);
            }
            "T" => {
                let micros = rest.parse().map_err(|_| garbled())?;
                answer.1 = Some(Duration::from_micros(micros));
            }
            "X" => answer.2 = Some(rest.to_string()),
            _ => return Err(garbled()),
        }
    }
}

/// The worker's side: reads the job on stdin, draws it, answers (see the module docs).
pub(super) fn work(
    mut emit: impl FnMut(&[u8]) -> std::io::Result<()>,
    spent: impl Fn() -> u64,
) -> std::io::Result<()> {
    use std::io::Read;
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let drawn = serde_json::from_slice::<CardJob>(&input)
        .map_err(|e| e.to_string())
        .and_then(|job| render(&job).map_err(|e| e.to_string()));
    match drawn {
        Ok(png) => {
            let mut part = format!("C {}\n", png.len()).into_bytes();
            part.extend_from_slice(&png);
            emit(&part)?;
        }
        Err(message) => {
            let message: String = message
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .take(500)
                .collect();
            emit(format!("X {message}\n").as_bytes())?;
        }
    }
    emit(format!("T {}\n", spent()).as_bytes())
}
