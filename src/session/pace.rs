//! How fast a running simulation goes: generations per second, or as fast as it can.

/// How fast a running simulation goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pace {
    /// At most this many generations per second.
    PerSecond(f64),
    /// As fast as the engine goes.
    Max,
}

impl Pace {
    pub const SLOWEST: f64 = 0.25;
    pub const FASTEST: f64 = (1u64 << 30) as f64;

    /// One step up the scale ..., 1/2, 1, 2, 4, ..., 2^30, max.
    pub fn faster(self) -> Pace {
        match self {
            Pace::PerSecond(r) if r * 2.0 > Self::FASTEST => Pace::Max,
            Pace::PerSecond(r) => Pace::PerSecond(r * 2.0),
            Pace::Max => Pace::Max,
        }
    }

    pub fn slower(self) -> Pace {
        match self {
            Pace::PerSecond(r) => Pace::PerSecond((r / 2.0).max(Self::SLOWEST)),
            Pace::Max => Pace::PerSecond(Self::FASTEST),
        }
    }

    pub fn describe(self) -> String {
        match self {
            Pace::Max => "max gen/s".to_string(),
            Pace::PerSecond(r) if r >= 1.0 => format!("{r} gen/s"),
            Pace::PerSecond(r) => format!("1 gen every {} s", 1.0 / r),
        }
    }

    /// `max`, or generations per second.
    pub fn parse(text: &str) -> Result<Pace, String> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("max") {
            return Ok(Pace::Max);
        }
        match t.parse::<f64>() {
            Ok(r) if r > 0.0 && r.is_finite() => Ok(Pace::PerSecond(r.min(Self::FASTEST))),
            _ => Err(format!(
                "'{text}' is not a speed: give generations per second (a positive number) or 'max'"
            )),
        }
    }
}
