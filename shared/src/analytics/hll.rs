//! A HyperLogLog sketch (Flajolet et al., 2007) for a site-day's visitors past the exact
//! threshold: 2^12 one-byte registers (4 KiB, standard error 1.04/√4096 ≈ 1.6 %), merged by
//! taking each register's maximum, so sketches from any number of edges and flushes combine
//! into the sketch of the union. Small cardinalities use linear counting, as the paper says.
//!
//! Our own rather than a crate's: the store must merge registers and keep them as text,
//! and the crates we looked at (hyperloglogplus, hyperloglog) keep theirs private. It is the
//! paper's estimator, nothing more, and its accuracy is tested below.

/// log2 of the number of registers.
const P: u32 = 12;
const M: usize = 1 << P;

/// The registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sketch(Vec<u8>);

impl Default for Sketch {
    fn default() -> Self {
        Sketch(vec![0; M])
    }
}

impl Sketch {
    /// Adds a visitor (already a uniform hash).
    pub fn add(&mut self, hash: i64) {
        // Spread the bits again (splitmix64's finaliser): callers' hashes are HMAC output,
        // but a test's may not be.
        let mut h = hash as u64;
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        let index = (h >> (64 - P)) as usize;
        let rest = (h << P) | (1 << (P - 1));
        let rank = rest.leading_zeros() as u8 + 1;
        if self.0[index] < rank {
            self.0[index] = rank;
        }
    }

    /// Each register's maximum of the two.
    pub fn merge(&mut self, other: &Sketch) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = (*a).max(*b);
        }
    }

    /// The estimated number of distinct visitors added.
    pub fn estimate(&self) -> u64 {
        let m = M as f64;
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let sum: f64 = self.0.iter().map(|&r| 2f64.powi(-i32::from(r))).sum();
        let raw = alpha * m * m / sum;
        let zeros = self.0.iter().filter(|&&r| r == 0).count();
        let e = if raw <= 2.5 * m && zeros > 0 {
            m * (m / zeros as f64).ln()
        } else {
            raw
        };
        e.round() as u64
    }

    /// The registers as hex (how the store keeps them).
    pub fn to_text(&self) -> String {
        hex::encode(&self.0)
    }

    /// Registers read back; anything malformed is an empty sketch.
    pub fn from_text(text: &str) -> Sketch {
        match hex::decode(text) {
            Ok(r) if r.len() == M => Sketch(r),
            _ => Sketch::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_within_a_few_percent_and_merges_as_a_union() {
        let (mut a, mut b) = (Sketch::default(), Sketch::default());
        for i in 0..60_000i64 {
            a.add(i.wrapping_mul(0x5851_F42D_4C95_7F2D));
        }
        for i in 40_000..100_000i64 {
            b.add(i.wrapping_mul(0x5851_F42D_4C95_7F2D));
        }
        let err = |e: u64, n: f64| (e as f64 - n).abs() / n;
        assert!(err(a.estimate(), 60_000.0) < 0.05, "{}", a.estimate());
        a.merge(&b);
        assert!(err(a.estimate(), 100_000.0) < 0.05, "{}", a.estimate());
        assert_eq!(Sketch::from_text(&a.to_text()), a);
        let mut small = Sketch::default();
        for i in 0..100i64 {
            small.add(i.wrapping_mul(0x5851_F42D_4C95_7F2D));
        }
        assert!(err(small.estimate(), 100.0) < 0.05);
    }
}
