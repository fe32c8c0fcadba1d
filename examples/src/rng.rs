//! A small deterministic pseudo-random generator (SplitMix64), so scenes are the same
//! on every machine and no RNG crate is needed.

/// SplitMix64 (Steele, Lea and Flood 2014): one 64-bit word of state, passes BigCrush,
/// and every seed (zero included) gives a good stream. Not for cryptography.
///
/// ```
/// use scenewalk_examples::rng::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let x = a.range_f32(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform `f32` in `[0, 1)` (24 random bits, so never exactly 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// A uniform `f32` in `[lo, hi)`; `lo` when the range is empty.
    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        let x = lo + (hi - lo) * self.next_f32();
        // Rounding can land exactly on `hi`; keep the half-open promise.
        if x < hi { x } else { lo }
    }

    /// A uniform integer in `[0, n)` (`0` when `n` is 0), by Lemire's multiply-shift
    /// (bias below 2⁻³² for the sizes used here).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A uniform integer in `[lo, hi]` (inclusive; `lo` when `hi < lo`).
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        if hi < lo {
            return lo;
        }
        lo + self.below((hi - lo).saturating_add(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_first_outputs() {
        // Reference values of SplitMix64 seeded with 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn ranges_hold() {
        let mut rng = SplitMix64::new(42);
        for _ in 0..10_000 {
            let f = rng.next_f32();
            assert!((0.0..1.0).contains(&f));
            assert!(rng.below(3) < 3);
            let b = rng.between(2, 5);
            assert!((2..=5).contains(&b));
        }
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.between(4, 4), 4);
    }

    #[test]
    fn below_covers_every_value() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [0u32; 6];
        for _ in 0..6_000 {
            seen[rng.below(6)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }
}
