//! The built-in pattern library: the RLE files in `assets/patterns/`, embedded in the binary and
//! selectable by name (case-insensitive; spaces, `-` and `_` ignored).

use super::Pattern;

/// The app's library menu groups patterns this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    StillLife,
    Oscillator,
    Spaceship,
    Gun,
    Methuselah,
    /// Patterns for rules other than Life.
    OtherRules,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::StillLife,
        Category::Oscillator,
        Category::Spaceship,
        Category::Gun,
        Category::Methuselah,
        Category::OtherRules,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Category::StillLife => "Still lifes",
            Category::Oscillator => "Oscillators",
            Category::Spaceship => "Spaceships",
            Category::Gun => "Guns",
            Category::Methuselah => "Methuselahs",
            Category::OtherRules => "Other rules",
        }
    }
}

/// One embedded pattern file.
#[derive(Clone, Copy, Debug)]
pub struct LibraryPattern {
    /// The file name without `.rle`, which is also its name on the command line.
    pub id: &'static str,
    pub category: Category,
    pub rle: &'static str,
}

impl LibraryPattern {
    /// The parsed pattern. Library files are checked by the tests, so this cannot fail.
    pub fn pattern(&self) -> Pattern {
        super::rle::parse(self.rle)
            .unwrap_or_else(|e| panic!("library pattern {} is malformed: {e}", self.id))
    }
}

macro_rules! library {
    ($($id:literal => $cat:ident,)*) => {
        /// Every library pattern, in menu order.
        pub const PATTERNS: &[LibraryPattern] = &[
            $(LibraryPattern {
                id: $id,
                category: Category::$cat,
                rle: include_str!(concat!("../../assets/patterns/", $id, ".rle")),
            },)*
        ];
    };
}

library! {
    "block" => StillLife,
    "beehive" => StillLife,
    "blinker" => Oscillator,
    "toad" => Oscillator,
    "beacon" => Oscillator,
    "pulsar" => Oscillator,
    "pentadecathlon" => Oscillator,
    "glider" => Spaceship,
    "lwss" => Spaceship,
    "mwss" => Spaceship,
    "hwss" => Spaceship,
    "gosper-glider-gun" => Gun,
    "diehard" => Methuselah,
    "r-pentomino" => Methuselah,
    "acorn" => Methuselah,
    "rabbits" => Methuselah,
    "bunnies" => Methuselah,
    "highlife-replicator" => OtherRules,
    "replicator-seed" => OtherRules,
    "daynight-plus" => OtherRules,
    "b3s3-flipper" => OtherRules,
    "b3s13-flipper" => OtherRules,
    "wireworld-diodes" => OtherRules,
    "langtons-loop" => OtherRules,
}

/// Other names users type for library patterns.
const ALIASES: [(&str, &str); 8] = [
    ("gun", "gosper-glider-gun"),
    ("gosper", "gosper-glider-gun"),
    ("gosperglidergun", "gosper-glider-gun"),
    ("rpentomino", "r-pentomino"),
    ("lightweightspaceship", "lwss"),
    ("middleweightspaceship", "mwss"),
    ("langtonsloops", "langtons-loop"),
    ("langtonloop", "langtons-loop"),
];

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The library entry with this name.
pub fn find(name: &str) -> Option<&'static LibraryPattern> {
    let key = normalise(name);
    let id = ALIASES
        .iter()
        .find(|(alias, _)| *alias == key)
        .map_or(key.clone(), |(_, id)| normalise(id));
    PATTERNS.iter().find(|p| normalise(p.id) == id)
}

/// The parsed library pattern with this name.
pub fn get(name: &str) -> Option<Pattern> {
    find(name).map(LibraryPattern::pattern)
}

/// The names, for error messages and `--help`.
pub fn names() -> Vec<&'static str> {
    PATTERNS.iter().map(|p| p.id).collect()
}
