//! Options: the `option name … type …` lines an engine declares after `uci`, and the check
//! of a value sent for one with `setoption`.

use std::fmt;
use std::str::FromStr;

use super::shorten;

/// An option an engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// Its name: one or more words; compared without regard to letter case.
    pub name: String,
    pub kind: OptionKind,
}

/// The type of an option, with its default and its bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Check { default: bool },
    /// A whole number from `min` to `max`.
    Spin { default: i64, min: i64, max: i64 },
    /// One of `vars` (a word each).
    Combo { default: String, vars: Vec<String> },
    /// Any text (`<empty>` on the wire for none).
    String { default: String },
    /// No value: setting it does something.
    Button,
}

/// A value checked against its option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Check(bool),
    Spin(i64),
    /// The combo's own spelling of the value chosen.
    Combo(String),
    String(String),
    Button,
}

impl UciOption {
    pub fn new(name: &str, kind: OptionKind) -> UciOption {
        UciOption {
            name: name.to_string(),
            kind,
        }
    }

    /// Whether `name` names this option (letter case aside).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }

    /// Checks the value of a `setoption` for this option; `Err` says what was expected (the
    /// caller names the option).
    pub fn value(&self, text: Option<&str>) -> Result<OptionValue, String> {
        if self.kind == OptionKind::Button {
            return Ok(OptionValue::Button);
        }
        let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
            return Err("the value is missing".to_string());
        };
        match &self.kind {
            OptionKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(format!("expected true or false, not `{}`", shorten(text))),
            },
            OptionKind::Spin { min, max, .. } => match text.parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => Ok(OptionValue::Spin(n)),
                _ => Err(format!(
                    "expected a whole number from {min} to {max}, not `{}`",
                    shorten(text)
                )),
            },
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| OptionValue::Combo(v.clone()))
                .ok_or_else(|| {
                    format!(
                        "expected one of {}, not `{}`",
                        vars.join(", "),
                        shorten(text)
                    )
                }),
            OptionKind::String { .. } => Ok(OptionValue::String(text.to_string())),
            OptionKind::Button => Ok(OptionValue::Button),
        }
    }
}

impl fmt::Display for UciOption {
    /// The declaration: `option name Hash type spin default 16 min 1 max 65536`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::String { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl FromStr for UciOption {
    type Err = String;

    /// Reads a declaration; `Err` says what is missing or wrong.
    fn from_str(line: &str) -> Result<UciOption, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let ["option", "name", rest @ ..] = &words[..] else {
            return Err("expected `option name <name> type <type> …`".to_string());
        };
        let at = rest
            .iter()
            .position(|&w| w == "type")
            .ok_or("option: `type` is missing")?;
        let name = rest[..at].join(" ");
        if name.is_empty() {
            return Err("option: the name is missing".to_string());
        }
        let (kind, rest) = rest[at + 1..]
            .split_first()
            .ok_or("option: the type is missing")?;
        // The words after `default`, `min`, `max` and each `var`, up to the next of these.
        let mut default: Option<String> = None;
        let (mut min, mut max, mut vars) = (None, None, Vec::new());
        let mut i = 0;
        while i < rest.len() {
            let key = rest[i];
            let end = rest[i + 1..]
                .iter()
                .position(|w| matches!(*w, "default" | "min" | "max" | "var"))
                .map_or(rest.len(), |p| i + 1 + p);
            let value = rest[i + 1..end].join(" ");
            match key {
                "default" => default = Some(value),
                "min" => min = Some(value),
                "max" => max = Some(value),
                "var" => vars.push(value),
                other => return Err(format!("option: unexpected `{}`", shorten(other))),
            }
            i = end;
        }
        let number = |what: &str, v: Option<String>| -> Result<i64, String> {
            let v = v.ok_or_else(|| format!("option {name}: `{what}` is missing"))?;
            v.parse()
                .map_err(|_| format!("option {name}: `{what}` is not a number: `{}`", shorten(&v)))
        };
        let kind = match *kind {
            "check" => OptionKind::Check {
                default: match default.as_deref() {
                    Some("true") => true,
                    Some("false") => false,
                    _ => return Err(format!("option {name}: a check's default is true or false")),
                },
            },
            "spin" => OptionKind::Spin {
                default: number("default", default)?,
                min: number("min", min)?,
                max: number("max", max)?,
            },
            "combo" => OptionKind::Combo {
                default: default.unwrap_or_default(),
                vars,
            },
            "string" => OptionKind::String {
                default: default.filter(|d| d != "<empty>").unwrap_or_default(),
            },
            "button" => OptionKind::Button,
            other => return Err(format!("option {name}: unknown type `{}`", shorten(other))),
        };
        Ok(UciOption { name, kind })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn declarations_read_and_written() {
        let hash: UciOption = "option name Hash type spin default 16 min 1 max 65536"
            .parse()
            .unwrap();
        assert_eq!(
            hash,
            UciOption::new(
                "Hash",
                OptionKind::Spin {
                    default: 16,
                    min: 1,
                    max: 65536
                }
            )
        );
        let variant: UciOption =
            "option name UCI_Variant type combo default chess var chess var crazyhouse"
                .parse()
                .unwrap();
        assert!(variant.is("uci_variant"));
        assert_eq!(
            variant.to_string(),
            "option name UCI_Variant type combo default chess var chess var crazyhouse"
        );
        let path: UciOption = "option name VariantPath type string default <empty>"
            .parse()
            .unwrap();
        assert_eq!(path.kind, OptionKind::String { default: "".into() });
        let clear: UciOption = "option name Clear Hash type button".parse().unwrap();
        assert_eq!(clear.name, "Clear Hash");
        assert!("option name X type spin default a min 1 max 2"
            .parse::<UciOption>()
            .unwrap_err()
            .contains("not a number"));
        assert!("option name type check default true"
            .parse::<UciOption>()
            .unwrap_err()
            .contains("name is missing"));
        assert!("option name X"
            .parse::<UciOption>()
            .unwrap_err()
            .contains("type"));
        assert!("id name X".parse::<UciOption>().is_err());
    }

    #[test]
    fn values_are_checked() {
        let spin = UciOption::new(
            "Threads",
            OptionKind::Spin {
                default: 1,
                min: 1,
                max: 64,
            },
        );
        assert_eq!(spin.value(Some(" 8 ")), Ok(OptionValue::Spin(8)));
        assert_eq!(
            spin.value(Some("0")),
            Err("expected a whole number from 1 to 64, not `0`".into())
        );
        assert_eq!(spin.value(None), Err("the value is missing".into()));
        let combo = UciOption::new(
            "Algorithm",
            OptionKind::Combo {
                default: "auto".into(),
                vars: vec!["auto".into(), "maxn".into()],
            },
        );
        assert_eq!(
            combo.value(Some("MaxN")),
            Ok(OptionValue::Combo("maxn".into()))
        );
        assert_eq!(
            combo.value(Some("minimax")),
            Err("expected one of auto, maxn, not `minimax`".into())
        );
        let check = UciOption::new("Ponder", OptionKind::Check { default: false });
        assert_eq!(check.value(Some("TRUE")), Ok(OptionValue::Check(true)));
        assert!(check.value(Some("yes")).is_err());
        let button = UciOption::new("Clear Hash", OptionKind::Button);
        assert_eq!(button.value(None), Ok(OptionValue::Button));
    }

    fn word() -> impl Strategy<Value = String> {
        "[A-Za-z_][A-Za-z0-9_]{0,7}".prop_filter("a keyword", |w| {
            !matches!(w.as_str(), "type" | "default" | "min" | "max" | "var")
        })
    }

    fn option() -> impl Strategy<Value = UciOption> {
        let kind = prop_oneof![
            any::<bool>().prop_map(|default| OptionKind::Check { default }),
            (any::<i32>(), any::<i32>(), any::<i32>()).prop_map(|(d, a, b)| OptionKind::Spin {
                default: d.into(),
                min: a.min(b).into(),
                max: a.max(b).into(),
            }),
            proptest::collection::vec(word(), 1..5).prop_map(|vars| OptionKind::Combo {
                default: vars[0].clone(),
                vars,
            }),
            proptest::collection::vec(word(), 0..3).prop_map(|w| OptionKind::String {
                default: w.join(" ")
            }),
            Just(OptionKind::Button),
        ];
        (proptest::collection::vec(word(), 1..3), kind).prop_map(|(name, kind)| UciOption {
            name: name.join(" "),
            kind,
        })
    }

    proptest! {
        /// A declaration written and read back is the same option.
        #[test]
        fn options_read_what_they_write(o in option()) {
            let line = o.to_string();
            prop_assert_eq!(line.parse::<UciOption>(), Ok(o), "{}", line);
        }
    }
}
