//! Elementary rules written as formulas of x (left), y (self) and z (right), boolean
//! (`x ^ y ^ z`, `x & y | !z`) or arithmetic mod 2 (`(x + y + z) % 2`, `(x*y + x*z) % 2`).
//!
//! Values are integers. `&`, `|`, `^` are bitwise (`&&`, `||` are accepted for `&`, `|`);
//! `!` and `~` are logical not (0 becomes 1, anything else 0); `+`, `-`, `*` are the usual
//! arithmetic and `%` the non-negative remainder. Precedence is C's: unary, then `* %`, then
//! `+ -`, then `&`, `^`, `|`. The formula's value is finally taken mod 2, so arithmetic formulas
//! may leave out the outer `% 2`. The formula is evaluated on all eight neighbourhoods and
//! compiles to the Wolfram number with that truth table.

use super::ElementaryRule;

/// Deeper nesting, or more tokens, than this is refused, so that hostile input cannot overflow
/// the stack while parsing, evaluating or dropping the expression.
const MAX_DEPTH: usize = 200;
const MAX_TOKENS: usize = 1000;

/// A string is read as a formula when it mentions a variable.
pub(super) fn looks_like_formula(s: &str) -> bool {
    s.chars()
        .any(|c| matches!(c, 'x' | 'y' | 'z' | 'X' | 'Y' | 'Z'))
}

/// Compiles a formula to its elementary rule. The error names the column and what was expected.
pub fn compile_formula(text: &str) -> Result<ElementaryRule, String> {
    let tokens = tokenize(text)?;
    if tokens.len() > MAX_TOKENS {
        return Err(format!(
            "formula: {} tokens is more than the {MAX_TOKENS} allowed",
            tokens.len()
        ));
    }
    let mut parser = Parser {
        tokens: &tokens,
        pos: 0,
        end_column: text.chars().count() + 1,
    };
    let expr = parser.expr(0)?;
    if let Some(t) = parser.tokens.get(parser.pos) {
        return Err(format!(
            "formula: unexpected '{}' at column {}",
            t.text, t.column
        ));
    }
    let mut table = [false; 8];
    for (k, out) in table.iter_mut().enumerate() {
        let vars = [(k >> 2 & 1) as i64, (k >> 1 & 1) as i64, (k & 1) as i64];
        let v = eval(&expr, vars).map_err(|why| {
            format!(
                "formula: {why} at x={}, y={}, z={}",
                vars[0], vars[1], vars[2]
            )
        })?;
        *out = v.rem_euclid(2) == 1;
    }
    Ok(ElementaryRule::from_truth_table(table))
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Or,
    Xor,
    And,
    Add,
    Sub,
    Mul,
    Rem,
}

#[derive(Debug)]
enum Expr {
    Var(usize),
    Num(i64),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
}

#[derive(Debug)]
struct Token {
    text: String,
    column: usize,
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let len = if c.is_ascii_digit() {
            chars[i..].iter().take_while(|c| c.is_ascii_digit()).count()
        } else if (c == '&' || c == '|') && chars.get(i + 1) == Some(&c) {
            2
        } else if "xyzXYZ!~&|^+-*%()".contains(c) {
            1
        } else if c.is_alphabetic() {
            let name: String = chars[i..]
                .iter()
                .take_while(|c| c.is_alphanumeric())
                .collect();
            return Err(format!(
                "formula: unknown name '{name}' at column {column} (the variables are x, y, z)"
            ));
        } else {
            return Err(format!("formula: unexpected '{c}' at column {column}"));
        };
        tokens.push(Token {
            text: chars[i..i + len].iter().collect(),
            column,
        });
        i += len;
    }
    Ok(tokens)
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    end_column: usize,
}

/// Binary operators by precedence level, loosest first.
const LEVELS: [&[(&str, Op)]; 5] = [
    &[("|", Op::Or), ("||", Op::Or)],
    &[("^", Op::Xor)],
    &[("&", Op::And), ("&&", Op::And)],
    &[("+", Op::Add), ("-", Op::Sub)],
    &[("*", Op::Mul), ("%", Op::Rem)],
];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.pos).map(|t| t.text.as_str())
    }

    fn column(&self) -> usize {
        self.tokens
            .get(self.pos)
            .map_or(self.end_column, |t| t.column)
    }

    fn expr(&mut self, depth: usize) -> Result<Expr, String> {
        self.binary(0, depth)
    }

    fn binary(&mut self, level: usize, depth: usize) -> Result<Expr, String> {
        if level == LEVELS.len() {
            return self.unary(depth);
        }
        let mut lhs = self.binary(level + 1, depth)?;
        while let Some(op) = self
            .peek()
            .and_then(|t| LEVELS[level].iter().find(|(s, _)| *s == t))
            .map(|&(_, op)| op)
        {
            self.pos += 1;
            let rhs = self.binary(level + 1, depth)?;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self, depth: usize) -> Result<Expr, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "formula: nested more than {MAX_DEPTH} deep at column {}",
                self.column()
            ));
        }
        let column = self.column();
        let Some(tok) = self.peek() else {
            return Err(format!(
                "formula: expected a value at column {column} (end of formula)"
            ));
        };
        self.pos += 1;
        match tok {
            "!" | "~" => Ok(Expr::Not(Box::new(self.unary(depth + 1)?))),
            "-" => Ok(Expr::Neg(Box::new(self.unary(depth + 1)?))),
            "x" | "X" => Ok(Expr::Var(0)),
            "y" | "Y" => Ok(Expr::Var(1)),
            "z" | "Z" => Ok(Expr::Var(2)),
            "(" => {
                let inner = self.expr(depth + 1)?;
                if self.peek() != Some(")") {
                    return Err(format!(
                        "formula: expected ')' at column {} to close '(' at column {column}",
                        self.column()
                    ));
                }
                self.pos += 1;
                Ok(inner)
            }
            t if t.as_bytes()[0].is_ascii_digit() => t
                .parse()
                .map(Expr::Num)
                .map_err(|_| format!("formula: number {t} at column {column} is too large")),
            t => Err(format!(
                "formula: expected a value at column {column}, found '{t}'"
            )),
        }
    }
}

fn eval(e: &Expr, vars: [i64; 3]) -> Result<i64, String> {
    Ok(match e {
        Expr::Var(i) => vars[*i],
        Expr::Num(n) => *n,
        Expr::Not(a) => (eval(a, vars)? == 0) as i64,
        Expr::Neg(a) => eval(a, vars)?.checked_neg().ok_or("a value overflows")?,
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(a, vars)?, eval(b, vars)?);
            match op {
                Op::Or => a | b,
                Op::Xor => a ^ b,
                Op::And => a & b,
                Op::Add => a.checked_add(b).ok_or("a value overflows")?,
                Op::Sub => a.checked_sub(b).ok_or("a value overflows")?,
                Op::Mul => a.checked_mul(b).ok_or("a value overflows")?,
                Op::Rem => {
                    if b == 0 {
                        return Err("'% 0' divides by zero".to_string());
                    }
                    a.checked_rem_euclid(b).ok_or("a value overflows")?
                }
            }
        }
    })
}
