//! The amounts a subtraction game lets a player take from a heap, as the user writes them
//! (`1..3`, `1,3,4`, `3`).

use serde::Serialize;

/// Which amounts a subtraction game lets a player take from the heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TakeSet {
    /// Any number from `min` to `max`.
    Range { min: u64, max: u64 },
    /// Exactly one of these (sorted, no duplicates, no zero).
    Set(Vec<u64>),
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TakeSetError {
    #[error("the take-set is empty: give at least one amount, like 1..3 or 1,3,4")]
    Empty,
    #[error("the take-set contains 0: a move must take at least one stone")]
    Zero,
    #[error("'{0}' is not a take-set: use a range like 1..3 or a list like 1,3,4")]
    Syntax(String),
}

impl TakeSet {
    /// `1..3` (inclusive), `1-3`, `3` (1..3), or `1,3,4`.
    pub fn parse(text: &str) -> Result<Self, TakeSetError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(TakeSetError::Empty);
        }
        let num = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| TakeSetError::Syntax(text.to_string()))
        };
        let set = if let Some((a, b)) = t.split_once("..").or_else(|| t.split_once('-')) {
            let (min, max) = (num(a)?, num(b.trim_start_matches('='))?);
            if min == 0 {
                return Err(TakeSetError::Zero);
            }
            if min > max {
                return Err(TakeSetError::Empty);
            }
            TakeSet::Range { min, max }
        } else if t.contains(',') {
            let mut v = t.split(',').map(num).collect::<Result<Vec<_>, _>>()?;
            v.sort_unstable();
            v.dedup();
            if v.first() == Some(&0) {
                return Err(TakeSetError::Zero);
            }
            TakeSet::Set(v)
        } else {
            // A single number k means 1..k, the textbook's "take 1 to k".
            match num(t)? {
                0 => return Err(TakeSetError::Zero),
                k => TakeSet::Range { min: 1, max: k },
            }
        };
        Ok(set)
    }

    /// The amounts that can be taken from a heap of `n`.
    pub fn amounts(&self, n: u64) -> Vec<u64> {
        match self {
            TakeSet::Range { min, max } => (*min..=(*max).min(n)).collect(),
            TakeSet::Set(v) => v.iter().copied().filter(|&a| a <= n).collect(),
        }
    }

    /// How many amounts there are.
    pub fn count(&self) -> u64 {
        match self {
            TakeSet::Range { min, max } => (max - min).saturating_add(1),
            TakeSet::Set(v) => v.len() as u64,
        }
    }

    /// The largest amount.
    pub fn max(&self) -> u64 {
        match self {
            TakeSet::Range { max, .. } => *max,
            TakeSet::Set(v) => *v.last().unwrap_or(&0),
        }
    }
}

impl std::fmt::Display for TakeSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TakeSet::Range { min, max } => write!(f, "{min}..{max}"),
            TakeSet::Set(v) => {
                let s: Vec<String> = v.iter().map(u64::to_string).collect();
                write!(f, "{{{}}}", s.join(", "))
            }
        }
    }
}
