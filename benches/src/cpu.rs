//! CPU time per request, from `/proc`: what each server and what the load generator spent.
//!
//! On a 2-core machine the load generator (wrk, h2load, or this process's TLS client) runs
//! beside the server it measures, and both are CPU-bound. With `s` µs of server CPU and `c` µs
//! of client CPU per request, the requests per second are about `cores / (s + c)`, so the ratio
//! of two servers' rates is `(s_nginx + c) / (s_edge + c)`: the client's share caps the ratio
//! whatever the servers do. [`Usage::bound`] is that cap, reported beside each measured ratio.
//!
//! Times come from `/proc/PID/stat` (`utime` + `stime` of a process, and of its children
//! processes for nginx's workers) and from this process's own line (`utime` + `stime`, and
//! `cutime` + `cstime`: the children it has waited for, wrk and h2load once they exit). The
//! kernel counts them in clock ticks of 10 ms; a 5-s run of tens of thousands of requests makes
//! that tick small per request.

use std::time::Duration;

/// Clock ticks per second of `/proc`'s times (`USER_HZ`, 100 on Linux).
const TICKS_PER_SEC: f64 = 100.0;

/// The fields after the command name of `/proc/{pid}/stat` (the name may hold spaces).
fn stat_fields(pid: &str) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    Some(after.split_whitespace().map(str::to_string).collect())
}

/// Field `n` (as `proc(5)` numbers them, from 1) of a `stat` line, given the fields after the
/// name (which are fields 3 and on).
fn field(fields: &[String], n: usize) -> u64 {
    fields.get(n - 3).and_then(|f| f.parse().ok()).unwrap_or(0)
}

/// CPU time `pid` and its direct children processes have used so far.
pub fn tree(pid: u32) -> Duration {
    let mut ticks = own_ticks(&pid.to_string());
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if !name.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if let Some(f) = stat_fields(&name)
                && field(&f, 4) == u64::from(pid)
            {
                ticks += field(&f, 14) + field(&f, 15);
            }
        }
    }
    Duration::from_secs_f64(ticks as f64 / TICKS_PER_SEC)
}

fn own_ticks(pid: &str) -> u64 {
    stat_fields(pid).map_or(0, |f| field(&f, 14) + field(&f, 15))
}

/// CPU time of this process and of the children it has waited for.
pub fn client() -> Duration {
    let ticks = stat_fields("self").map_or(0, |f| {
        field(&f, 14) + field(&f, 15) + field(&f, 16) + field(&f, 17)
    });
    Duration::from_secs_f64(ticks as f64 / TICKS_PER_SEC)
}

/// CPU per request of a server and of the load generator in one run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    pub server_us: f64,
    pub client_us: f64,
}

impl Usage {
    /// Runs `load` against the server process `pid` (and its children) and returns what it
    /// returns with the CPU both sides spent per request; `requests` reads the count from it.
    pub fn of<T>(pid: u32, load: impl FnOnce() -> T, requests: impl Fn(&T) -> f64) -> (T, Usage) {
        let mark = Mark::now(pid);
        let out = load();
        let usage = mark.per_request(requests(&out));
        (out, usage)
    }

    /// The edge / nginx rate a CPU-bound machine allows with these costs (see the module docs):
    /// `(nginx + client) / (edge + client)`, with the client's cost the mean of the two runs.
    pub fn bound(edge: Usage, nginx: Usage) -> f64 {
        let c = (edge.client_us + nginx.client_us) / 2.0;
        (nginx.server_us + c) / (edge.server_us + c)
    }

    /// The requests per second `on` would answer against `off`'s, by their CPU per request,
    /// with the load generator's cost per request the same for both (it sends them the same
    /// requests): `(off's server / client + 1) / (on's server / client + 1)`. Each server's
    /// cost is taken relative to its own run's load generator, so a run made while the whole
    /// machine was slower (both sides' CPU per request up together) does not count against it.
    pub fn implied(on: Usage, off: Usage) -> f64 {
        (off.server_us / off.client_us + 1.0) / (on.server_us / on.client_us + 1.0)
    }

    /// [`Usage::implied`] for a server with cores of its own (no load generator beside it),
    /// whose requests per second follow its own CPU per request alone.
    pub fn alone(on: Usage, off: Usage) -> f64 {
        (off.server_us / off.client_us) / (on.server_us / on.client_us)
    }
}

/// The CPU times of a server and of this process at one instant, to measure a load from.
pub struct Mark {
    pid: u32,
    server: Duration,
    client: Duration,
}

impl Mark {
    pub fn now(pid: u32) -> Mark {
        Mark {
            pid,
            server: tree(pid),
            client: client(),
        }
    }

    /// What each side spent since the mark, per request of `requests`.
    pub fn per_request(&self, requests: f64) -> Usage {
        let per = |d: Duration| d.as_secs_f64() * 1e6 / requests.max(1.0);
        Usage {
            server_us: per(tree(self.pid).saturating_sub(self.server)),
            client_us: per(client().saturating_sub(self.client)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_loop_shows_in_this_process_time_and_the_bound_follows_the_costs() {
        // Spin until the kernel has counted 200 ms of this process's CPU; on a loaded machine
        // that takes longer than 200 ms of wall time, so the limit is generous.
        let before = client();
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while client() - before < Duration::from_millis(200) {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "CPU time never counted: {x}"
            );
        }
        assert!(tree(std::process::id()) >= Duration::from_millis(200));
        let edge = Usage {
            server_us: 10.0,
            client_us: 20.0,
        };
        let nginx = Usage {
            server_us: 20.0,
            client_us: 20.0,
        };
        assert!((Usage::bound(edge, nginx) - 40.0 / 30.0).abs() < 1e-9);
    }
}
