//! Thumbnails of library blocks and templates, taken by headless Chromium (Debian's
//! `chromium`; `CHROMIUM_PATH` names another). Chromium is the browser the editor targets, so a
//! thumbnail shows what owners will see; it is driven through its own command line
//! (`--screenshot`, `--dump-dom`) rather than a DevTools client, which keeps the control plane
//! free of a browser-automation dependency.
//!
//! Trim crops the shot to the content's height (up to the asked size): a first run prints the
//! document's height, the second takes the picture. The page never reaches the network: every
//! request goes to a proxy on the discard port, so block code cannot fetch anything.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use tokio::process::Command;

/// Why no thumbnail was made.
#[derive(Debug, thiserror::Error)]
pub enum ShotError {
    #[error(
        "Screenshots need Chromium: install it (apt-get install chromium) or set CHROMIUM_PATH"
    )]
    NoBrowser,
    #[error("Chromium failed: {0}")]
    Failed(String),
}

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

fn base_command(browser: &Path, profile: &Path) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--mute-audio",
        "--proxy-server=127.0.0.1:9",
        "--proxy-bypass-list=<-loopback>",
        "--virtual-time-budget=3000",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .stdin(std::process::Stdio::null())
    .kill_on_drop(true);
    c
}

async fn run(mut c: Command) -> Result<std::process::Output, ShotError> {
    match tokio::time::timeout(Duration::from_secs(40), c.output()).await {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => Err(ShotError::NoBrowser),
        Ok(Err(e)) => Err(ShotError::Failed(e.to_string())),
        Err(_) => Err(ShotError::Failed("timed out".into())),
    }
}

/// A PNG of `document` at `width`×`height`; with `trim`, only as tall as the content.
pub async fn take(
    browser: Option<&Path>,
    document: &str,
    (width, height): (u32, u32),
    trim: bool,
) -> Result<Vec<u8>, ShotError> {
    let browser = browser.ok_or(ShotError::NoBrowser)?;
    let dir = tempfile::tempdir().map_err(|e| ShotError::Failed(e.to_string()))?;
    let page = dir.path().join("page.html");
    let profile = dir.path().join("profile");
    tokio::fs::write(&page, format!("{document}{MEASURE}"))
        .await
        .map_err(|e| ShotError::Failed(e.to_string()))?;
    let url = format!("file://{}", page.display());
    let mut height = height;
    if trim {
        let mut c = base_command(browser, &profile);
        c.arg(format!("--window-size={width},{height}"))
            .arg("--dump-dom")
            .arg(&url);
        let out = run(c).await?;
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
    let mut c = base_command(browser, &profile);
    c.arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url);
    let out = run(c).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert_eq!(parse_size(None, (1280, 600)), Ok((1280, 600)));
        assert_eq!(parse_size(Some("800, 400"), (1, 1)), Ok((800, 400)));
        assert!(parse_size(Some("800"), (1, 1)).is_err());
        assert!(parse_size(Some("99999,1"), (1, 1)).is_err());
        assert!(parse_size(Some("a,b"), (1, 1)).is_err());
    }
}
