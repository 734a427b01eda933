//! Tokens and a cursor shared by the expression, pool and tier parsers.
//!
//! Positions are 1-based character counts (not bytes), so an error can say
//! "at character 4" and mean what a player sees.

use super::DiceError;

/// One token of a dice text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A run of ASCII digits; `value` is `None` when it does not fit a `u64`.
    Num {
        text: String,
        value: Option<u64>,
    },
    /// A run of ASCII letters, as written (`d`, `D`, `on`, `DT`).
    Word(String),
    Plus,
    Minus,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    /// 1-based character position of the token's first character.
    pub at: usize,
}

impl Tok {
    /// How an error message names this token.
    pub fn describe(&self) -> String {
        match self {
            Tok::Num { text, .. } => format!("number {text}"),
            Tok::Word(w) => format!("'{w}'"),
            Tok::Plus => "'+'".to_owned(),
            Tok::Minus => "'-'".to_owned(),
        }
    }

    pub fn is_word(&self, word: &str) -> bool {
        matches!(self, Tok::Word(w) if w.eq_ignore_ascii_case(word))
    }
}

/// Splits `text` into tokens; whitespace only separates.
pub(crate) fn lex(text: &str) -> Result<Vec<Token>, DiceError> {
    let mut out = Vec::new();
    let mut chars = text.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        let at = i + 1;
        if c.is_whitespace() {
            continue;
        }
        let tok = if c.is_ascii_digit() || c.is_ascii_alphabetic() {
            let digits = c.is_ascii_digit();
            let mut run = String::from(c);
            while let Some((_, next)) = chars.next_if(|&(_, n)| {
                if digits {
                    n.is_ascii_digit()
                } else {
                    n.is_ascii_alphabetic()
                }
            }) {
                run.push(next);
            }
            if digits {
                let value = run.parse::<u64>().ok();
                Tok::Num { text: run, value }
            } else {
                Tok::Word(run)
            }
        } else if c == '+' {
            Tok::Plus
        } else if c == '-' {
            Tok::Minus
        } else {
            return Err(DiceError::BadChar { ch: c, at });
        };
        out.push(Token { tok, at });
    }
    if out.is_empty() {
        return Err(DiceError::Empty);
    }
    Ok(out)
}

/// Walks a token list; every read that can fail names what it expected.
pub(crate) struct Cursor {
    toks: Vec<Token>,
    pos: usize,
}

impl Cursor {
    pub fn new(text: &str) -> Result<Self, DiceError> {
        Ok(Self {
            toks: lex(text)?,
            pos: 0,
        })
    }

    pub fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    pub fn bump(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    /// The error for finding `found` (or the end) where `expected` belonged.
    pub fn wrong(found: Option<Token>, expected: &'static str) -> DiceError {
        match found {
            Some(t) => DiceError::Unexpected {
                found: t.tok.describe(),
                at: t.at,
                expected,
            },
            None => DiceError::UnexpectedEnd { expected },
        }
    }

    /// Reads the word `word` (any case).
    pub fn word(&mut self, word: &str, expected: &'static str) -> Result<usize, DiceError> {
        match self.bump() {
            Some(t) if t.tok.is_word(word) => Ok(t.at),
            other => Err(Self::wrong(other, expected)),
        }
    }

    /// Reads a `+`.
    pub fn plus(&mut self, expected: &'static str) -> Result<usize, DiceError> {
        match self.bump() {
            Some(Token { tok: Tok::Plus, at }) => Ok(at),
            other => Err(Self::wrong(other, expected)),
        }
    }

    /// Reads a raw number token without checking its range.
    pub fn raw_number(&mut self, expected: &'static str) -> Result<Number, DiceError> {
        match self.bump() {
            Some(Token {
                tok: Tok::Num { text, value },
                at,
            }) => Ok(Number { text, value, at }),
            other => Err(Self::wrong(other, expected)),
        }
    }

    /// Fails unless every token has been read.
    pub fn end(&mut self, expected: &'static str) -> Result<(), DiceError> {
        match self.bump() {
            None => Ok(()),
            other => Err(Self::wrong(other, expected)),
        }
    }
}

/// A number token as read, before its range is checked.
pub(crate) struct Number {
    pub text: String,
    pub value: Option<u64>,
    pub at: usize,
}

impl Number {
    /// The signed value, or `OutOfRange` naming `part` when outside `min..=max`.
    pub fn checked(
        &self,
        part: &'static str,
        sign: i64,
        min: i64,
        max: i64,
    ) -> Result<i64, DiceError> {
        self.value
            .and_then(|v| i64::try_from(v).ok())
            .map(|v| v * sign)
            .filter(|v| (min..=max).contains(v))
            .ok_or_else(|| self.out_of_range(part, sign, min, max))
    }

    /// Like [`Number::checked`], converted to the type the caller keeps.
    pub fn narrow<T: TryFrom<i64>>(
        &self,
        part: &'static str,
        sign: i64,
        min: i64,
        max: i64,
    ) -> Result<T, DiceError> {
        let v = self.checked(part, sign, min, max)?;
        T::try_from(v).map_err(|_| self.out_of_range(part, sign, min, max))
    }

    fn out_of_range(&self, part: &'static str, sign: i64, min: i64, max: i64) -> DiceError {
        DiceError::OutOfRange {
            part,
            value: if sign < 0 {
                format!("-{}", self.text)
            } else {
                self.text.clone()
            },
            at: Some(self.at),
            min,
            max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_runs_and_counts_characters_not_bytes() {
        let toks = lex(" 12dD+ on-").unwrap();
        let kinds: Vec<_> = toks.iter().map(|t| (t.tok.describe(), t.at)).collect();
        assert_eq!(
            kinds,
            vec![
                ("number 12".to_owned(), 2),
                ("'dD'".to_owned(), 4),
                ("'+'".to_owned(), 6),
                ("'on'".to_owned(), 8),
                ("'-'".to_owned(), 10),
            ]
        );
        assert_eq!(lex("é%"), Err(DiceError::BadChar { ch: 'é', at: 1 }));
        assert_eq!(lex("2d6 %"), Err(DiceError::BadChar { ch: '%', at: 5 }));
        assert_eq!(lex("  \t"), Err(DiceError::Empty));
    }

    #[test]
    fn numbers_too_big_for_u64_are_kept_as_text() {
        let toks = lex("99999999999999999999999").unwrap();
        assert!(matches!(&toks[0].tok, Tok::Num { value: None, text } if text.len() == 23));
    }
}
