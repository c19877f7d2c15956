//! A request-latency histogram for both servers' `/metrics` and the edge's heartbeat p99.
//!
//! prometheus-client's own `Histogram` takes a mutex on every observation; the edge observes
//! every visitor request, so this one keeps fixed buckets in atomics (one relaxed add per
//! request) and implements prometheus-client's `EncodeMetric` to be exposed like any other
//! metric. Snapshots subtract, so a heartbeat can report the p99 of its own interval.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use prometheus_client::{
    encoding::{EncodeMetric, MetricEncoder, NoLabelSet},
    metrics::MetricType,
};

/// Upper bounds in seconds, as Prometheus' client libraries default to, with finer steps at
/// the bottom where a cached static page lands.
pub const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
const SLOTS: usize = BUCKETS.len() + 1;

/// The `class` label of both servers' request counters: `2xx` … `5xx`, or `other`.
pub fn status_class(status: u16) -> &'static str {
    match status {
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        500..=599 => "5xx",
        _ => "other",
    }
}

/// Cloning shares the counts, as prometheus-client's own metric types do: one clone goes to
/// the registry, another to whoever observes.
#[derive(Debug, Default, Clone)]
pub struct Latency(Arc<Counts>);

#[derive(Debug, Default)]
struct Counts {
    /// Per-bucket counts (not cumulative); the last slot is `+Inf`.
    counts: [AtomicU64; SLOTS],
    sum_micros: AtomicU64,
}

/// The counts at one moment; subtract two to get an interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LatencySnapshot {
    pub counts: [u64; SLOTS],
    pub sum_micros: u64,
}

impl Latency {
    pub fn observe(&self, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        let slot = BUCKETS
            .iter()
            .position(|b| secs <= *b)
            .unwrap_or(BUCKETS.len());
        self.0.counts[slot].fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        self.0.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// Moves every observation of `from` into this histogram (`from` is left empty); for
    /// per-thread histograms folded into a shared one.
    pub fn absorb(&self, from: &Latency) {
        for (into, from) in self.0.counts.iter().zip(&from.0.counts) {
            into.fetch_add(from.swap(0, Ordering::Relaxed), Ordering::Relaxed);
        }
        let sum = from.0.sum_micros.swap(0, Ordering::Relaxed);
        self.0.sum_micros.fetch_add(sum, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> LatencySnapshot {
        LatencySnapshot {
            counts: std::array::from_fn(|i| self.0.counts[i].load(Ordering::Relaxed)),
            sum_micros: self.0.sum_micros.load(Ordering::Relaxed),
        }
    }
}

impl LatencySnapshot {
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// What happened between `earlier` and this snapshot.
    pub fn since(&self, earlier: &LatencySnapshot) -> LatencySnapshot {
        LatencySnapshot {
            counts: std::array::from_fn(|i| self.counts[i].saturating_sub(earlier.counts[i])),
            sum_micros: self.sum_micros.saturating_sub(earlier.sum_micros),
        }
    }

    /// The `q` quantile in seconds, interpolated within its bucket as Prometheus'
    /// `histogram_quantile` does; `None` without observations. Past the last bound it
    /// answers the last bound.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let rank = q.clamp(0.0, 1.0) * total as f64;
        let mut below = 0u64;
        for (i, &n) in self.counts.iter().enumerate() {
            if n > 0 && (below + n) as f64 >= rank {
                let Some(&upper) = BUCKETS.get(i) else {
                    return Some(BUCKETS[BUCKETS.len() - 1]);
                };
                let lower = if i == 0 { 0.0 } else { BUCKETS[i - 1] };
                let within = ((rank - below as f64) / n as f64).clamp(0.0, 1.0);
                return Some(lower + (upper - lower) * within);
            }
            below += n;
        }
        Some(BUCKETS[BUCKETS.len() - 1])
    }
}

impl EncodeMetric for Latency {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        let snap = self.snapshot();
        let buckets: Vec<(f64, u64)> = BUCKETS
            .iter()
            .copied()
            .chain(std::iter::once(f64::INFINITY))
            .zip(snap.counts)
            .collect();
        encoder.encode_histogram::<NoLabelSet>(
            snap.sum_micros as f64 / 1e6,
            snap.count(),
            &buckets,
            None,
        )
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

#[cfg(test)]
mod absorb_tests {
    use super::*;

    #[test]
    fn absorbing_moves_every_observation_and_empties_the_source() {
        let (shared, local) = (Latency::default(), Latency::default());
        shared.observe(Duration::from_micros(300));
        local.observe(Duration::from_micros(300));
        local.observe(Duration::from_millis(30));
        shared.absorb(&local);
        let snap = shared.snapshot();
        assert_eq!(snap.count(), 3);
        assert_eq!(snap.sum_micros, 30_600);
        assert_eq!(snap.counts[0], 2);
        assert_eq!(local.snapshot(), LatencySnapshot::default());
    }
}

#[cfg(test)]
mod tests {
    use prometheus_client::{encoding::text::encode, registry::Registry};

    use super::*;

    #[test]
    fn quantiles_interpolate_within_the_bucket_and_intervals_subtract() {
        let l = Latency::default();
        assert_eq!(l.snapshot().quantile(0.99), None);
        // 98 fast requests (≤ 0.5 ms) and 2 slow ones between 50 and 100 ms.
        for _ in 0..98 {
            l.observe(Duration::from_micros(300));
        }
        let first = l.snapshot();
        l.observe(Duration::from_millis(70));
        l.observe(Duration::from_millis(80));
        let all = l.snapshot();
        assert_eq!(all.count(), 100);
        let p50 = all.quantile(0.5).unwrap();
        assert!(p50 > 0.0 && p50 <= 0.0005, "{p50}");
        let p99 = all.quantile(0.99).unwrap();
        assert!((0.05..=0.1).contains(&p99), "{p99}");
        // Only the two slow ones happened since `first`.
        let interval = all.since(&first);
        assert_eq!(interval.count(), 2);
        assert!(interval.quantile(0.5).unwrap() >= 0.05);
        assert_eq!(interval.sum_micros, 150_000);
        // Beyond the last bound: the last bound.
        l.observe(Duration::from_secs(60));
        assert_eq!(l.snapshot().since(&all).quantile(0.99), Some(10.0));
    }

    #[test]
    fn it_encodes_as_a_cumulative_prometheus_histogram() {
        let l = Latency::default();
        l.observe(Duration::from_micros(200));
        l.observe(Duration::from_millis(3));
        let mut registry = Registry::default();
        registry.register("latency_seconds", "Request latency", l.clone());
        let mut out = String::new();
        encode(&mut out, &registry).unwrap();
        assert!(out.contains("# TYPE latency_seconds histogram"), "{out}");
        assert!(
            out.contains("latency_seconds_bucket{le=\"0.0005\"} 1"),
            "{out}"
        );
        assert!(
            out.contains("latency_seconds_bucket{le=\"0.005\"} 2"),
            "{out}"
        );
        assert!(
            out.contains("latency_seconds_bucket{le=\"+Inf\"} 2"),
            "{out}"
        );
        assert!(out.contains("latency_seconds_count 2"), "{out}");
    }
}
