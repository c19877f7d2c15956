//! The real binaries as processes: they start on port 0, report their address, and exit
//! cleanly on SIGTERM.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
};

fn sigterm_exits_cleanly(bin: &str, args: &[&str], ready: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args(args)
        .env("VITRINE_DATA_DIR", dir.path())
        .env("VITRINE_CONTROL_LISTEN", "127.0.0.1:0")
        .env("VITRINE_EDGE_HTTP_LISTEN", "127.0.0.1:0")
        .env("VITRINE_EDGE_ADMIN_LISTEN", "127.0.0.1:0")
        .env("VITRINE_DASHBOARD_DIR", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with(ready), "{line}");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();
    // No `TestDb` in these tests to install the TLS provider reqwest's client needs.
    vitrine_shared::tls::install_crypto_provider();
    let health = reqwest::blocking::get(format!("{url}/healthz")).unwrap();
    assert_eq!(health.status(), 200);
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{bin} exited with {exit:?} after SIGTERM");
}

#[test]
fn the_control_plane_binary_stops_gracefully_on_sigterm() {
    sigterm_exits_cleanly(
        env!("CARGO_BIN_EXE_vitrine-control"),
        &["serve"],
        "vitrine-control listening on http://",
    );
}

#[test]
fn the_control_plane_migrate_subcommand_migrates() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_vitrine-control"))
        .arg("migrate")
        .env("VITRINE_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "migrations applied (sqlite)"
    );
    assert!(dir.path().join("vitrine.db").exists());
}

#[test]
fn help_lists_every_setting() {
    let out = Command::new(env!("CARGO_BIN_EXE_vitrine-control"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for (name, _) in vitrine_shared::config::SETTINGS_HELP {
        assert!(
            text.contains(&format!("VITRINE_{name}")),
            "{name} missing from --help"
        );
    }
}
