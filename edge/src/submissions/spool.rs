//! The spool and the dead-letter file: append-only JSON-lines files, each capped, written with
//! `fsync` before a visitor is answered, and replaced atomically when a replay has taken lines
//! from them (see the parent module's docs).

use std::{io::Write, path::PathBuf};

use vitrine_shared::store::NewSubmission;

use super::fields::{clean_name, clean_value};

/// One submission waiting in the spool: a line of JSON in [`super::SPOOL_FILE`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Spooled {
    pub sub: NewSubmission,
    /// The notification e-mail's text.
    pub body: String,
    /// The same as HTML, the fields in a table (absent from lines spooled before it existed).
    #[serde(default)]
    pub html: String,
    /// The Conversion API `Lead` event's JSON, when the site turned it on.
    #[serde(default)]
    pub lead: Option<String>,
}

impl Spooled {
    /// The spool line, newline included.
    pub fn to_line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(self).expect("a submission serialises");
        line.push(b'\n');
        line
    }
}

/// An append-only file with its size, capped at `max` bytes.
pub(super) struct Capped {
    path: PathBuf,
    pub(super) bytes: u64,
    max: u64,
}

impl Capped {
    pub(super) fn open(path: PathBuf, max: u64) -> Capped {
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        Capped { path, bytes, max }
    }

    /// Appends and syncs `line`; `Ok(false)` when it would pass the cap (nothing written).
    pub(super) fn append(&mut self, line: &[u8]) -> std::io::Result<bool> {
        if self.bytes + line.len() as u64 > self.max {
            return Ok(false);
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        f.write_all(line)?;
        f.sync_data()?;
        self.bytes += line.len() as u64;
        Ok(true)
    }

    pub(super) fn read(&self) -> std::io::Result<Vec<u8>> {
        match std::fs::read(&self.path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            other => other,
        }
    }

    /// Replaces the file with `rest`, atomically (a crash leaves the old or the new file).
    pub(super) fn replace(&mut self, rest: &[u8]) -> std::io::Result<()> {
        let tmp = self.path.with_extension("jsonl.tmp");
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(rest)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &self.path)?;
        if let Some(dir) = self.path.parent() {
            std::fs::File::open(dir)?.sync_all()?;
        }
        self.bytes = rest.len() as u64;
        Ok(())
    }
}
/// A spool line as this edge would write it now: a line written by an older edge, before
/// fields were cleaned, loses its control characters too.
pub(super) fn cleaned(s: Spooled) -> Spooled {
    let NewSubmission {
        uid,
        project_id,
        url,
        submit,
        to,
        subject,
        data,
        created_at,
    } = s.sub;
    Spooled {
        body: clean_value(&s.body),
        html: clean_value(&s.html),
        lead: s.lead,
        sub: NewSubmission {
            uid: clean_name(&uid),
            project_id,
            url: clean_name(&url),
            submit: clean_name(&submit),
            to: clean_name(&to),
            subject: clean_name(&subject),
            data: clean_value(&data),
            created_at,
        },
    }
}
