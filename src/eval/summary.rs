//! Aggregates over pages: mean P, R and F1, median and population standard deviation of F1
//! (seed 004 section 3 uses the F1 deviation as the stability measure), as `score.py` does
//! with `statistics.fmean`, `median` and `pstdev`.

use serde::Serialize;

use super::measures::{Measure, Scores};

/// One measure aggregated over a group of pages.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct MeasureSummary {
    /// Mean precision.
    pub p: f64,
    /// Mean recall.
    pub r: f64,
    /// Mean F1 (of the per-page F1s, not the F1 of the means).
    pub f1: f64,
    pub f1_median: f64,
    /// Population standard deviation of the per-page F1s.
    pub f1_std: f64,
}

/// Every measure aggregated over a group of pages, indexed by [`Measure`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MeasureSummaries(pub [MeasureSummary; 5]);

impl MeasureSummaries {
    /// Aggregate per-page scores; all zeros for no pages.
    pub fn of(scores: &[Scores]) -> MeasureSummaries {
        let mut out = [MeasureSummary::default(); 5];
        for m in Measure::ALL {
            let column = |f: fn(&super::measures::Prf) -> f64| -> Vec<f64> {
                scores.iter().map(|s| f(&s.0[m as usize])).collect()
            };
            let f1 = column(|x| x.f1);
            out[m as usize] = MeasureSummary {
                p: mean(&column(|x| x.p)),
                r: mean(&column(|x| x.r)),
                f1: mean(&f1),
                f1_median: median(&f1),
                f1_std: pstdev(&f1),
            };
        }
        MeasureSummaries(out)
    }

    pub fn get(&self, m: Measure) -> MeasureSummary {
        self.0[m as usize]
    }
}

impl Serialize for MeasureSummaries {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(5))?;
        for m in Measure::ALL {
            map.serialize_entry(m.name(), &self.get(m))?;
        }
        map.end()
    }
}

/// Compensated (Neumaier) sum: close to Python's exact `math.fsum`, which `fmean` uses.
fn sum(xs: impl IntoIterator<Item = f64>) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for x in xs {
        let t = s + x;
        c += if s.abs() >= x.abs() {
            (s - t) + x
        } else {
            (x - t) + s
        };
        s = t;
    }
    s + c
}

/// Arithmetic mean; 0 for no values.
///
/// ```
/// assert_eq!(warcsift::eval::summary::mean(&[1.0, 2.0, 4.0]), 7.0 / 3.0);
/// ```
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    sum(xs.iter().copied()) / xs.len() as f64
}

/// Median; the mean of the two middle values for an even count; 0 for no values.
///
/// ```
/// assert_eq!(warcsift::eval::summary::median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
/// ```
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    }
}

/// Population standard deviation (divide by n), two-pass; 0 for no values.
///
/// ```
/// assert_eq!(warcsift::eval::summary::pstdev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]), 2.0);
/// ```
pub fn pstdev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let m = mean(xs);
    (sum(xs.iter().map(|x| (x - m) * (x - m))) / xs.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::measures::{prf, Prf};

    #[test]
    fn aggregates() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[0.5, 0.0, 1.0, 0.25]), 0.375);
        assert_eq!(pstdev(&[1.0]), 0.0);
        assert_eq!(pstdev(&[0.0, 1.0]), 0.5);
        // Python: statistics.fmean([0.1] * 10) == 0.1 (exact summation).
        assert_eq!(mean(&[0.1; 10]), 0.1);
    }

    #[test]
    fn summaries_per_measure() {
        let one = |p: Prf| Scores([p; 5]);
        let s = MeasureSummaries::of(&[one(prf(1, 2, 1)), one(prf(0, 0, 0)), one(prf(0, 1, 1))]);
        let ws = s.get(Measure::WordsSeq);
        assert_eq!(ws.p, (0.5 + 1.0 + 0.0) / 3.0);
        assert_eq!(ws.r, 2.0 / 3.0);
        assert_eq!(ws.f1_median, 2.0 / 3.0);
        let json = serde_json::to_value(s).unwrap_or_default();
        assert!(json["shingles"]["f1_std"].is_number());
    }
}
