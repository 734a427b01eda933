//! How many of something a rule allows: one number, or a range.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A count a rule allows, as a pack writes it: one number (`4`) or a
/// range (`{ min = 3, max = 5 }`; `max` left out for no upper end).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(
    untagged,
    expecting = "a count (`4`) or a range (`{ min = 3, max = 5 }`, `max` left out for no most)"
)]
pub enum CountRange {
    /// Exactly this many.
    Exactly(usize),
    /// At least `min`, and at most `max` where it is given.
    Between(Between),
}

/// The two ends of a [`CountRange`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Between {
    pub min: usize,
    #[serde(default)]
    pub max: Option<usize>,
}

impl CountRange {
    /// The fewest allowed.
    pub fn min(&self) -> usize {
        match self {
            CountRange::Exactly(n) => *n,
            CountRange::Between(b) => b.min,
        }
    }

    /// The most allowed; `None` for no upper end.
    pub fn max(&self) -> Option<usize> {
        match self {
            CountRange::Exactly(n) => Some(*n),
            CountRange::Between(b) => b.max,
        }
    }

    pub fn contains(&self, n: usize) -> bool {
        n >= self.min() && self.max().is_none_or(|max| n <= max)
    }

    /// The same range moved up by `n` (a leader's extra entries).
    pub fn plus(&self, n: usize) -> CountRange {
        match self {
            CountRange::Exactly(m) => CountRange::Exactly(m.saturating_add(n)),
            CountRange::Between(b) => CountRange::Between(Between {
                min: b.min.saturating_add(n),
                max: b.max.map(|m| m.saturating_add(n)),
            }),
        }
    }

    /// Two ranges added end to end (a gang's leaders and its recruits).
    pub fn and(&self, other: &CountRange) -> CountRange {
        match (self, other) {
            (CountRange::Exactly(a), CountRange::Exactly(b)) => {
                CountRange::Exactly(a.saturating_add(*b))
            }
            _ => CountRange::Between(Between {
                min: self.min().saturating_add(other.min()),
                max: self
                    .max()
                    .zip(other.max())
                    .map(|(a, b)| a.saturating_add(b)),
            }),
        }
    }

    /// `4`, `3 to 5`, `3 or more`.
    pub fn describe(&self) -> String {
        match (self.min(), self.max()) {
            (min, Some(max)) if min == max => min.to_string(),
            (min, Some(max)) => format!("{min} to {max}"),
            (min, None) => format!("{min} or more"),
        }
    }

    /// True for the only count 1: what picks a singular noun.
    pub fn is_one(&self) -> bool {
        self.max() == Some(1) && self.min() == 1
    }

    /// Its ends that a pack writes, for the bounds every number is checked
    /// against: (`suffix`, value).
    pub fn ends(&self) -> Vec<(&'static str, usize)> {
        match self {
            CountRange::Exactly(n) => vec![("", *n)],
            CountRange::Between(b) => {
                let mut out = vec![(".min", b.min)];
                out.extend(b.max.map(|m| (".max", m)));
                out
            }
        }
    }

    /// Why the range cannot be met, if it runs backwards.
    pub fn backwards(&self) -> Option<String> {
        match self.max() {
            Some(max) if max < self.min() => Some(format!(
                "the range runs backwards ({} to {max})",
                self.min()
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Holder {
        n: CountRange,
    }

    fn read(text: &str) -> Result<CountRange, String> {
        toml::from_str::<Holder>(text)
            .map(|h| h.n)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_number_or_a_range_is_read() {
        assert_eq!(read("n = 4").unwrap(), CountRange::Exactly(4));
        let r = read("n = { min = 3, max = 5 }").unwrap();
        assert_eq!((r.min(), r.max()), (3, Some(5)));
        assert!(r.contains(3) && r.contains(5) && !r.contains(6) && !r.contains(2));
        let open = read("n = { min = 2 }").unwrap();
        assert!(open.contains(2) && open.contains(1000) && !open.contains(1));
        let e = read("n = { min = 3, most = 5 }").unwrap_err();
        assert!(e.contains("a count (`4`) or a range"), "{e}");
        assert!(read("n = -1").is_err());
    }

    #[test]
    fn ranges_are_described_and_added() {
        let r = CountRange::Between(Between {
            min: 3,
            max: Some(5),
        });
        assert_eq!(r.describe(), "3 to 5");
        assert_eq!(CountRange::Exactly(4).describe(), "4");
        assert_eq!(
            CountRange::Between(Between { min: 2, max: None }).describe(),
            "2 or more"
        );
        assert_eq!(CountRange::Exactly(1).and(&r).describe(), "4 to 6");
        assert_eq!(
            CountRange::Exactly(1).and(&CountRange::Exactly(3)),
            CountRange::Exactly(4)
        );
        assert_eq!(r.plus(1).describe(), "4 to 6");
        assert!(
            CountRange::Between(Between {
                min: 5,
                max: Some(3)
            })
            .backwards()
            .is_some()
        );
    }
}
